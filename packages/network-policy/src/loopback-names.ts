/** The names RFC 6761 reserves for the loopback interface. */
const LOCALHOST = /^(?:[^.]+\.)*localhost\.?$/i;

/**
 * The addresses of a name RFC 6761 keeps for loopback (`localhost`, anything under `.localhost`, with or without the
 * final dot), which are loopback whatever a resolver says (browsers answer them so); null for any other name. Every
 * place that resolves a name for the policy asks this first, so that such a name is refused alike everywhere, not
 * a retryable failure where the resolver knows no `localhost.`.
 */
export function loopbackAddressesOf(name: string): string[] | null {
  return LOCALHOST.test(name) ? ['127.0.0.1', '::1'] : null;
}
