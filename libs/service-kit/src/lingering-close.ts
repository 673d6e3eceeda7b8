import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';

/** Most bytes of a refused body read and dropped after the answer before the connection is cut anyway. */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024;
/** Longest time the rest of a refused body may take after the answer. */
export const LINGER_MAX_MS = 5_000;

const CURRENT = Symbol('lingeringCloseRequest');
type LingeringSocket = Socket & { [CURRENT]?: Request; destroySoon?: () => void };

/**
 * Lingering close. A route that refuses a body while it is still arriving (413 past a document's limit) answers at
 * once with `connection: close`; Node then ends the connection as soon as the answer is written (`destroySoon`),
 * while the peer is still sending. The kernel answers the bytes that keep coming with a reset, and a peer that is
 * still writing (the gateway's proxy, a client's upload) sees the reset instead of the 413: the gateway answered
 * 503, a client got "connection reset". As HTTP servers have long done (Apache's lingering close), such a
 * connection is half-closed after the answer and the rest of the body read and dropped, at most LINGER_MAX_BYTES
 * within LINGER_MAX_MS, before it is closed; the peer reads the answer first.
 *
 * Node has no option for it, so the socket's own `destroySoon` (what Node calls for the last answer of a
 * connection) is wrapped, once per socket; everything else about the connection is Node's.
 */
export function lingeringClose() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const socket = req.socket as LingeringSocket;
    socket[CURRENT] = req;
    if (typeof socket.destroySoon === 'function' && !Object.prototype.hasOwnProperty.call(socket, 'destroySoon')) {
      const destroySoon = socket.destroySoon;
      socket.destroySoon = function lingerThenDestroy(this: LingeringSocket) {
        const pending = this[CURRENT];
        const declared = Number(pending?.headers['content-length'] ?? 0);
        if (!pending || pending.complete || pending.destroyed || declared > LINGER_MAX_BYTES || this.destroyed)
          return destroySoon.call(this);
        // the answer is written first, then our half of the connection ends; the body goes on being read and dropped
        this.end();
        let drained = 0;
        const cut = () => {
          clearTimeout(timer);
          this.destroy();
        };
        const timer = setTimeout(cut, LINGER_MAX_MS);
        timer.unref();
        pending.on('data', (chunk: Buffer) => {
          drained += chunk.length;
          if (drained > LINGER_MAX_BYTES) cut();
        });
        pending.once('end', cut);
        pending.once('error', cut);
        pending.resume();
        this.once('close', () => clearTimeout(timer));
      };
    }
    next();
  };
}
