// Which addresses a webhook may be sent to (docs/decisions/0057-webhooks.md): public unicast only, unless
// WEBHOOK_ALLOW_PRIVATE=true. Checked when an endpoint is registered and again at every delivery, on every address
// the name resolves to; the connection is then made to the address that was checked (the lookup below is the
// socket's own), so a name that answers a public address to the check and a private one to the connection
// (DNS rebinding) reaches nothing private.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

// IANA's special-purpose registries (IPv4 and IPv6), and everything outside global unicast.
const v4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  v4.addSubnet(network, prefix, "ipv4");
}

const v6 = new BlockList();
for (const [network, prefix] of [
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, benchmarking…)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  v6.addSubnet(network, prefix, "ipv6");
}

/** The 16 bytes of an IPv6 address (a zone, `%eth0`, dropped; a trailing dotted IPv4 read), or null. */
function v6Bytes(text: string): number[] | null {
  let address = text.split("%")[0]!.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const quad = v4Bytes(dotted[2]!);
    if (!quad) return null;
    address = `${dotted[1]}${((quad[0]! << 8) | quad[1]!).toString(16)}:${((quad[2]! << 8) | quad[3]!).toString(16)}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  const bytes: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return bytes;
}

function v4Bytes(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.map(Number);
}

const publicV4 = (bytes: number[]) => !v4.check(bytes.join("."), "ipv4");

/**
 * Whether an address (IPv4 or IPv6 text) is public unicast. IPv6 forms that carry an IPv4 address (mapped
 * `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the IPv4 address they carry; the
 * deprecated IPv4-compatible `::a.b.c.d`, `::` and `::1` are not public. Anything unreadable is not public.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address.split("%")[0]!);
  if (family === 4) return publicV4(v4Bytes(address)!);
  if (family !== 6) return false;
  const bytes = v6Bytes(address);
  if (!bytes) return false;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return publicV4(bytes.slice(12));
  if (zeros(0, 12)) return false;
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return publicV4(bytes.slice(12));
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return publicV4(bytes.slice(2, 6));
  // Global unicast is 2000::/3; the rest is reserved, local or multicast.
  if ((bytes[0]! & 0xe0) !== 0x20 && !(bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b)) return false;
  const text = bytes
    .reduce<string[]>(
      (groups, byte, index) => (index % 2 ? ((groups[groups.length - 1] += byte.toString(16).padStart(2, "0")), groups) : [...groups, byte.toString(16).padStart(2, "0")]),
      [],
    )
    .join(":");
  return !v6.check(text, "ipv6");
}

export class AddressRefusedError extends Error {
  override name = "AddressRefusedError";
  code = "EWEBHOOKADDRESS";
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** The system's resolver (what the socket would use): every address of the name. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** A URL's host name as the resolver and isIP take it: IPv6 literals without their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The address to connect to for a host: every address it resolves to must be public (unless private ones are
 * allowed); the first is chosen. Throws AddressRefusedError naming no address (the administration shows it).
 */
export async function checkedAddress(hostname: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<LookupAddress> {
  const literal = isIP(hostname);
  const addresses = literal ? [{ address: hostname, family: literal }] : await resolve(hostname);
  if (!addresses.length) throw new AddressRefusedError(`${hostname} has no address`);
  if (!allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused)
      throw new AddressRefusedError(`${hostname} resolves to a private, loopback, link-local or reserved address (${refused.address}): webhooks go to public addresses only`);
  }
  return addresses[0]!;
}

/**
 * The socket's lookup for one delivery: resolves and checks as checkedAddress does, and answers with the one
 * address checked, so the connection cannot go anywhere else.
 */
export function pinnedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddress(hostname, allowPrivate, resolve).then(
      (chosen) => {
        if ((options as { all?: boolean }).all) (callback as (error: null, addresses: LookupAddress[]) => void)(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

export type EndpointUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * An endpoint's address as registered: an absolute https URL (http too when private addresses are allowed, for
 * tests and closed networks) without user name or password, whose host resolves to public addresses only.
 */
export async function checkEndpointUrl(text: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<EndpointUrlCheck> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, message: "Enter the endpoint's full address, starting with https://" };
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return { ok: false, message: "The address must start with https://" };
  if (url.username || url.password) return { ok: false, message: "The address must not contain a user name or password" };
  if (!url.hostname) return { ok: false, message: "Enter the endpoint's full address, starting with https://" };
  if (allowPrivate) return { ok: true, url };
  try {
    await checkedAddress(hostOf(url), false, resolve);
  } catch (error) {
    if (error instanceof AddressRefusedError) return { ok: false, message: "The address must be public: private, loopback, link-local and reserved addresses are not allowed" };
    return { ok: false, message: "The address's host name could not be found" };
  }
  return { ok: true, url };
}
