import type { CommandHandler } from './context';

export const transactionCommands: Record<string, CommandHandler> = {
  commitTransaction: (cmd, ctx) => {
    ctx.transactions.commit(cmd);
    return { ok: 1 };
  },
  abortTransaction: (cmd, ctx) => {
    ctx.transactions.abort(cmd);
    return { ok: 1 };
  },
};
