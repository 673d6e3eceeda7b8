import { HEADER_SIZE, MAX_MESSAGE_SIZE } from './codec';

/**
 * Splits a TCP byte stream into whole wire-protocol messages. Returns an error string instead of
 * messages when the stream announces an impossible length, so the caller can close the socket.
 */
export class MessageFramer {
  private buffered: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): { messages: Buffer[]; error?: string } {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const messages: Buffer[] = [];
    while (this.buffered.length >= 4) {
      const length = this.buffered.readInt32LE(0);
      if (length < HEADER_SIZE) return { messages, error: `message length ${length} below header size` };
      if (length > MAX_MESSAGE_SIZE) return { messages, error: `message length ${length} exceeds ${MAX_MESSAGE_SIZE}` };
      if (this.buffered.length < length) break;
      messages.push(this.buffered.subarray(0, length));
      this.buffered = this.buffered.subarray(length);
    }
    return { messages };
  }

  /** Bytes of an incomplete message still waiting for the rest. */
  get pending(): number {
    return this.buffered.length;
  }
}
