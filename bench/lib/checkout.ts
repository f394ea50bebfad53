/** The customer pays on the simulated provider's checkout page of `redirectUrl`. */
export async function payAtCheckout(redirectUrl: string): Promise<void> {
  const paid = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'pay' }),
  });
  if (!paid.ok) throw new Error(`checkout pay: HTTP ${paid.status}`);
}
