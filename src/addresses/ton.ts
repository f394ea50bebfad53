import { Address } from '@ton/core';
import { fail, ok, reasons, type AddressValidation, type NetworkValidator } from './result';

const RAW = /^(0|-?[1-9]\d{0,9}):([0-9a-fA-F]{64})$/;
const FRIENDLY = /^([A-Za-z0-9+/]{48}|[A-Za-z0-9_-]{48})$/;
const WORKCHAINS = new Set([0, -1]);
/** Bounceable 0x11, non-bounceable 0x51, each possibly with the test-only bit 0x80. */
const FLAGS = new Set([0x11, 0x51, 0x91, 0xd1]);

function workchainOk(workchain: number): AddressValidation | undefined {
  return WORKCHAINS.has(workchain) ? undefined : fail(`TON workchain ${workchain} is not accepted (only 0 and -1)`);
}

/**
 * TON, with @ton/core `Address.parse`: the raw form (workchain:64 hex digits) or the user-friendly
 * form (48 characters of base64 or base64url with its flags and CRC16). The input is matched against
 * strict patterns first because the library is lenient (mixed base64 alphabets, any workchain
 * number). Friendly addresses flagged test-only are refused; the raw form carries no such flag.
 * The normalized form keeps the caller's form and bounceable flag: raw stays raw (lowercase hex),
 * friendly becomes base64url.
 */
export const tonValidator: NetworkValidator = (address) => {
  const raw = RAW.exec(address);
  if (raw) {
    const refused = workchainOk(Number(raw[1]));
    if (refused) return refused;
    return ok(Address.parseRaw(address).toRawString());
  }
  if (!FRIENDLY.test(address)) return fail(reasons.notAddress('ton'));
  // 36 bytes: flags (bounceable or not, test-only or not), workchain, 32-byte hash, CRC16.
  const flags = Buffer.from(address.replace(/-/g, '+').replace(/_/g, '/'), 'base64')[0];
  if (flags === undefined || !FLAGS.has(flags)) return fail(reasons.notAddress('ton'));
  let parsed: ReturnType<typeof Address.parseFriendly>;
  try {
    parsed = Address.parseFriendly(address);
  } catch (err) {
    // The library throws "Invalid checksum: …" for a bad CRC16.
    const message = err instanceof Error ? err.message : '';
    return fail(message.startsWith('Invalid checksum') ? reasons.checksum('ton') : reasons.notAddress('ton'));
  }
  const refused = workchainOk(parsed.address.workChain);
  if (refused) return refused;
  if (parsed.isTestOnly) return fail(reasons.testnet('ton'));
  return ok(parsed.address.toString({ urlSafe: true, bounceable: parsed.isBounceable, testOnly: false }));
};
