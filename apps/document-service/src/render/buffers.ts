/** A Buffer view of bytes that crossed a thread boundary (structured clone turns a Buffer into a plain Uint8Array). */
export const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
