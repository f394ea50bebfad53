import data from './data/currencies.json';
import { CurrencyDictionary } from './currency';

/** The checked-in dictionary, validated once when first imported (start-up). */
export const currencyDictionary = CurrencyDictionary.fromJson(data);
