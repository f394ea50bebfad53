import { randomBytes } from 'node:crypto';

/** A made-up on-chain transaction hash, `0x` and 64 hex digits, for crypto a simulator "delivers". */
export const simulatedTransactionHash = (): string => `0x${randomBytes(32).toString('hex')}`;
