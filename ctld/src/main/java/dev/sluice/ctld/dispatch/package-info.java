/** Delivery of controller effects (launch, signal, terminate) to node daemons over gRPC. */
package dev.sluice.ctld.dispatch;
