/**
 * {@code sluice-agent}: one root-owned daemon per login (or compute) host that runs the user
 * commands warm. It listens on a Unix socket, learns each caller's uid and gid from the
 * socket's peer credentials (never from anything the client sends), runs the command's library
 * entry point on a virtual thread with that identity, and streams standard output and error
 * back while relaying standard input and Ctrl-C. The wire format between the native front end
 * and the agent lives in {@link dev.sluice.cli.agent.AgentFrames} and docs/protocol.md.
 */
package dev.sluice.cli.agent;
