/** Registration with the controller, heartbeats, and delivery of job completion reports. */
package dev.sluice.noded.registration;
