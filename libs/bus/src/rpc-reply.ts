import { z } from 'zod';

/** Body of an RPC reply. */
export type RpcReply = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string; details?: unknown } };

const replySchema = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) }),
]);

export function encodeRpcReply(reply: RpcReply): Buffer {
  return Buffer.from(JSON.stringify(reply), 'utf8');
}

export function decodeRpcReply(content: Buffer): RpcReply {
  try {
    const parsed = replySchema.safeParse(JSON.parse(content.toString('utf8')));
    if (parsed.success) return parsed.data as RpcReply;
  } catch {
    // fall through
  }
  return { ok: false, error: { code: 'RPC_BAD_REPLY', message: 'unreadable RPC reply' } };
}
