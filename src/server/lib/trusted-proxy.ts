import { BlockList, isIP } from "node:net";

/**
 * Which proxies in front of the shop it believes (TRUST_PROXY): the number of them between the
 * client and the shop, or their addresses and networks. Never "any": a client writes its own
 * X-Forwarded-For, and trusting every hop made its leftmost, invented entry the client's address
 * (issue 28, item 1: the sign-in limit counted each guess under a new address).
 */
export type TrustProxy = { hops: number } | { addresses: string[] };

/**
 * Whether the address at `hop` (0: the socket's peer; 1: the rightmost X-Forwarded-For entry, and
 * so on leftwards) is a proxy the shop trusts: Fastify's `trustProxy` function, also asked before
 * the shop keeps a passed X-Request-Id (lib/request-id.ts).
 */
export type ProxyTrust = (address: string | undefined, hop: number) => boolean;

/** One address or network, as TRUST_PROXY lists them: `10.0.0.5`, `10.0.0.0/24`, `fd00::/8`. */
export function isAddressOrNetwork(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** `::ffff:10.0.0.5`, how a dual-stack socket shows an IPv4 peer, as the IPv4 address it is. */
const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** Answers for addresses already checked, bounded: behind a balancer they are a handful. */
const MAX_REMEMBERED = 1_000;

/**
 * The trust function for a setting, or undefined when the shop trusts no proxy. A hop count trusts
 * whatever is nearest the shop, so it is safe only where nothing but the balancer can reach the
 * instance; a list of addresses checks the peer itself.
 */
export function proxyTrust(setting: TrustProxy | undefined): ProxyTrust | undefined {
  if (!setting) return undefined;
  if ("hops" in setting) {
    const { hops } = setting;
    return (_address, hop) => hop < hops;
  }
  const list = new BlockList();
  for (const entry of setting.addresses) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  const known = new Map<string, boolean>();
  const check = (address: string): boolean => {
    const v4 = MAPPED_V4.exec(address)?.[1];
    if (v4 !== undefined) return list.check(v4, "ipv4");
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
  return (address) => {
    if (address === undefined) return false;
    let trusted = known.get(address);
    if (trusted === undefined) {
      trusted = check(address);
      if (known.size >= MAX_REMEMBERED) known.clear();
      known.set(address, trusted);
    }
    return trusted;
  };
}
