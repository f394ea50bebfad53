import { formQuery } from '../kit/url';
import { alchemypaySign, rampSignString } from './signing';

/**
 * The buy ramp page URL for these parameters (`appId` and `timestamp` among them), signed as the
 * "Ramp Signature Description" says: `sign` = base64 HMAC-SHA256 (app secret) of
 * `timestamp + "GET" + "/index/rampPageBuy?" + sorted parameters`, appended last, URL-encoded.
 */
export function signedRampUrl(rampUrl: string, appSecret: string, params: Record<string, string>): string {
  const present: Record<string, string> = {};
  for (const key of Object.keys(params).sort()) if (params[key] !== '') present[key] = params[key]!;
  return `${rampUrl}?${formQuery({ ...present, sign: alchemypaySign(appSecret, rampSignString(params)) })}`;
}
