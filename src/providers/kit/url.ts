/** A base URL without its trailing slashes, so that paths are appended to it as `${base}/path`. */
export const trimSlash = (url: string): string => url.replace(/\/+$/, '');
