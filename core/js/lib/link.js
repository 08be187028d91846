// Link: an agent's WebSocket and its timer — opening, batching frames,
// noticing a lost or dead connection, and waking the replica when it asks.
//
// The replica (Rust) decides what to send, when to send a heartbeat, when a
// silent link is dead and when to reconnect; the link only moves frames and
// keeps the one timer, handing everything that arrives to the agent's effect
// loop (`apply`).

import { AgentnetError, callCore } from './errors.js';
import { memberSocketUrl, openSocket, sendFrame } from './connect.js';
import { sharedSockets } from './lanes.js';

/** A random 32-bit number: the jitter of the replica's reconnection backoff. */
function random32() {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
}

/** Closes a socket now: the `ws` package's `terminate` skips the closing handshake a dead link never answers. */
function drop(socket) {
  if (typeof socket?.terminate === 'function') socket.terminate();
  else socket?.close();
}

/** Reports an error thrown by user code (a handler or listener) without stopping the agent. */
export function reportHandlerError(err) {
  console.error('agentnet: an event handler failed:', err);
}

/** One agent's connection to its network. */
export class Link {
  #WebSocket;
  #socketUrl;
  #credentials;
  /** The agent's current replica (a closed agent swaps it for one that refuses every call). */
  #replica;
  /** The agent's effect loop. */
  #apply;
  /** Whether the agent was closed for good. */
  #closed;
  #socket = null;
  /** Frames of the current synchronous run, sent together as one batched frame. */
  #burst = [];
  #timer = null;
  /** When `#timer` fires (ms since the epoch); Infinity when none is set. */
  #timerAt = Infinity;
  #onJoin = null;
  #listeners = new Set();
  /** Whether this agent takes a lane of a socket it shares with the process's other agents. */
  #share;
  /** Whether a lost connection is reopened (a refused join turns it off). */
  reconnect;

  constructor({ WebSocket, socketUrl, credentials, reconnect, shareSocket, replica, apply, closed }) {
    this.#WebSocket = WebSocket;
    this.#share = Boolean(shareSocket);
    this.#socketUrl = socketUrl;
    this.#credentials = credentials;
    this.reconnect = reconnect;
    this.#replica = replica;
    this.#apply = apply;
    this.#closed = closed;
  }

  /** Calls `listener({online, error?})` when the connection goes up or down. Returns an unsubscribe function. */
  onChange(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells the connection listeners; a failing listener does not stop the others. */
  notify(change) {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (err) {
        reportHandlerError(err);
      }
    }
  }

  /** Opens a socket and joins; resolves when the network accepted the join (`joined()`), rejects when it refused or the socket failed. */
  open(timeoutMs) {
    return new Promise((resolve, reject) => {
      const socket = this.#share
        ? sharedSockets(this.#WebSocket, this.#socketUrl).open(this.#replica().address)
        : openSocket(this.#WebSocket, memberSocketUrl(this.#socketUrl, this.#replica().address));
      this.#socket = socket;
      let settled = false;
      const fail = (error) => {
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const timer = setTimeout(() => {
        fail(new AgentnetError('timeout', `no join answer within ${timeoutMs} ms`));
        socket.close();
      }, timeoutMs);
      this.#onJoin = (error) => {
        clearTimeout(timer);
        if (error) return fail(error);
        if (!settled) {
          settled = true;
          resolve();
        }
        this.notify({ online: true });
      };
      socket.addEventListener('open', () => {
        const credentials = this.#credentials ? JSON.stringify(this.#credentials) : undefined;
        this.#apply(callCore(() => this.#replica().connected(credentials, Date.now())));
      });
      socket.addEventListener('message', (message) => {
        if (this.#socket === socket && !this.#closed()) this.#apply(this.#replica().receive(String(message.data), Date.now()));
      });
      socket.addEventListener('error', () => fail(new AgentnetError('unreachable', `cannot connect to ${this.#socketUrl}`)));
      socket.addEventListener('close', () => {
        clearTimeout(timer);
        fail(new AgentnetError('disconnected', 'the connection closed before the join was accepted'));
        if (this.#socket === socket) this.#lost();
      });
    });
  }

  /** The network answered the join: accepted (no error) or refused (`error`, and no more reconnecting). */
  joined(error) {
    this.#onJoin?.(error);
    if (!error) return;
    this.notify({ online: false, error });
    this.reconnect = false;
    this.#socket?.close(1000, 'join refused');
  }

  /**
   * Sends one frame. Once the network has sent a batched frame on this
   * connection, the frames of one synchronous run are gathered and go out as
   * one batched frame in a microtask; before that (or with an older network)
   * each frame goes alone.
   */
  send(frame) {
    const socket = this.#socket;
    if (socket?.readyState !== 1) return;
    if (!this.#replica().sendsBatches) return sendFrame(socket, frame);
    this.#burst.push(frame);
    if (this.#burst.length > 1) return;
    queueMicrotask(() => {
      const burst = this.#burst;
      this.#burst = [];
      if (this.#socket !== socket || socket.readyState !== 1) return;
      for (const batched of this.#replica().batch(burst)) sendFrame(socket, batched);
    });
  }

  /** No frame since the heartbeat: the socket is half-open. Drop it and start again. */
  dead() {
    const socket = this.#socket;
    this.#socket = null;
    drop(socket);
    this.#lost();
  }

  /** The connection closed (or was dropped as dead): the replica schedules the next attempt. */
  #lost() {
    if (this.#closed()) return;
    // With reconnection on, `reconnect` comes after the replica's backoff; it resumes from its watermark.
    if (this.reconnect) this.#replica().lost(Date.now(), random32());
    else this.#replica().disconnected();
    this.notify({ online: false });
    this.schedule();
  }

  /**
   * Keeps a timer for the replica's next deadline. A timer already set for
   * that moment or earlier stays (waking early costs one call that finds
   * nothing due): re-arming after every event would cost a timer per event.
   */
  schedule() {
    const at = this.#closed() ? -1 : this.#replica().pollTimeout();
    if (at < 0) {
      this.#stopTimer();
      return;
    }
    if (this.#timer !== null && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = Infinity;
      this.#apply(this.#replica().handleTimeout(Date.now()));
    }, Math.max(0, at - Date.now()));
  }

  /** Closes the socket for good (the agent is closing). */
  close() {
    this.#stopTimer();
    this.#socket?.close(1000, 'bye');
  }

  #stopTimer() {
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Infinity;
  }
}
