/**
 * The zod schemas of the off-ramp order routes (src/api/routes/sell-orders.ts) as the OpenAPI
 * document shows them.
 */
import {
  DepositConfirmationSchema,
  DepositSchema,
  SellDiscrepancySchema,
  SellOrderSchema,
  SellOrderStatusSchema,
} from '../domain/sell-order';
import { EXTRAS_LIMITS } from '../orders/extras-limits';
import { CreateSellOrderBodySchema, DepositConfirmationBodySchema, SELL_BROKER_EXTRAS_KEYS, sellOrderIdFor } from '../orders/sell-request';
import { CountryCode, CryptoCurrencyId, FiatCurrencyId, ipAddress, StateCode } from './schemas';

const EXAMPLE_SELL_ORDER = {
  provider_code: 'sandbox',
  from_currency: 14,
  to_currency: 2,
  from_amount: '0.5',
  refund_wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
  payout_method: 'sepa',
  country_code: 'DE',
  external_user_id: 'user-42',
  external_order_id: 'sell-2026-0001',
  return_url: 'https://wallet.example/sold',
};
export const EXAMPLE_SELL_ORDER_ID = sellOrderIdFor('dev', EXAMPLE_SELL_ORDER.external_order_id);

export const CreateSellOrderRequest = CreateSellOrderBodySchema.extend({
  from_currency: CryptoCurrencyId.meta({ description: 'The crypto currency the customer sells (a currency ID).' }),
  to_currency: FiatCurrencyId.meta({ description: 'The fiat currency paid out (a currency ID).' }),
  country_code: CountryCode,
  state_code: StateCode.optional(),
  from_amount: CreateSellOrderBodySchema.shape.from_amount.meta({
    description: 'The crypto amount the customer sends, at most the currency’s precision.',
  }),
  refund_wallet_address: CreateSellOrderBodySchema.shape.refund_wallet_address.meta({
    description: "Where the provider returns the crypto when it cannot pay out; validated for the crypto currency's network.",
  }),
  ip: CreateSellOrderBodySchema.shape.ip.meta(ipAddress("The end user's IP address; without it, the one sent with the offer.")),
  return_url: CreateSellOrderBodySchema.shape.return_url.meta({
    description: 'Where the provider sends the customer back: https: (http: to loopback outside production).',
  }),
  extras: CreateSellOrderBodySchema.shape.extras.meta({
    description: `Passed through to the order. ${SELL_BROKER_EXTRAS_KEYS.join(', ')} are refused (validation_error): the deposit and the provider's figures are the provider's word alone; as are more than ${EXTRAS_LIMITS.depth} levels of nesting, ${EXTRAS_LIMITS.keys} keys or ${EXTRAS_LIMITS.bytes} bytes of JSON.`,
  }),
}).meta({ id: 'CreateSellOrderRequest', example: EXAMPLE_SELL_ORDER });

export const SellOrderStatus = SellOrderStatusSchema.meta({ id: 'SellOrderStatus' });

export const SellOrder = SellOrderSchema.extend({
  status: SellOrderStatus,
  deposit: DepositSchema.meta({
    id: 'Deposit',
    description:
      "Where the customer sends the crypto, once the provider has given it through its authenticated channel: validated for the network and never changed afterwards (a report naming another is refused). Absent where the provider shows it only in its own checkout (docs/providers.md, 'Off-ramp').",
  }).optional(),
  deposit_confirmation: DepositConfirmationSchema.meta({
    id: 'DepositConfirmation',
    description:
      "The customer's deposit transaction as the integrator reported it (POST .../deposit_confirmation) and the provider took it: the integrator's word, passed on. The provider's own is transaction_hash.",
  }).optional(),
  discrepancies: SellOrderSchema.shape.discrepancies.meta({
    description:
      "Present when the provider reports another crypto amount received, payout amount or payout currency than the order's: from_amount, to_amount and to_currency are then the provider's, each entry giving what was ordered.",
  }),
}).meta({ id: 'SellOrder' });

export const ConfirmSellDepositRequest = DepositConfirmationBodySchema.extend({
  transaction_hash: DepositConfirmationBodySchema.shape.transaction_hash.meta({
    description:
      "The customer's deposit transaction as its network names it (0x and 64 hex digits on EVM networks, 64 hex digits on Bitcoin, a base58 signature on Solana, ...); checked for the order's network.",
  }),
}).meta({
  id: 'ConfirmSellDepositRequest',
  example: { transaction_hash: '0x2d0b2e3b8f6e1a3c6e7f9d8a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c' },
});

export { SellDiscrepancySchema };
