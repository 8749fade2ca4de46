/** Pure accounting values and codecs (TRES strings, state names); no JDBC, no sockets. */
package dev.sluice.dbd.model;
