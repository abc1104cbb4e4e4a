import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressRefusedError, checkedAddress, checkEndpointUrl, isPublicAddress, pinnedLookup, type Resolver } from "./address-guard.server";
import { post } from "./delivery.server";

const answers =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("the webhook address guard", () => {
  it.each([
    // IPv4: private, loopback, link-local (cloud metadata), carrier-grade NAT, this network, reserved, multicast, broadcast, documentation
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["127.0.0.1", false],
    ["127.255.255.254", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["192.0.0.8", false],
    ["192.0.2.1", false],
    ["198.18.0.1", false],
    ["224.0.0.1", false],
    ["240.0.0.1", false],
    ["255.255.255.255", false],
    ["8.8.8.8", true],
    ["172.32.0.1", true],
    ["100.128.0.1", true],
    ["93.184.216.34", true],
    // IPv6: unspecified, loopback, unique local, link-local (with a zone), multicast, documentation, Teredo, discard
    ["::", false],
    ["::1", false],
    ["fd00::1", false],
    ["fc12:3456::1", false],
    ["fe80::1", false],
    ["fe80::1%eth0", false],
    ["ff02::1", false],
    ["2001:db8::1", false],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false],
    ["100::1", false],
    ["2606:4700:4700::1111", true],
    ["2a00:1450:4001:82b::200e", true],
    // IPv4 inside IPv6: mapped (dotted and hex), NAT64, 6to4, the deprecated compatible form
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["::ffff:8.8.8.8", true],
    ["64:ff9b::a00:1", false],
    ["64:ff9b::808:808", true],
    ["2002:c0a8:101::1", false],
    ["2002:808:808::1", true],
    ["::127.0.0.1", false],
    ["::8.8.8.8", false],
    // Not addresses
    ["localhost", false],
    ["999.1.1.1", false],
    ["", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("checks every address a name resolves to, and the form of the URL", async () => {
    const dns = answers({
      "hooks.example.org": ["93.184.216.34", "2606:4700:4700::1111"],
      "rebind.example.org": ["93.184.216.34", "10.0.0.5"],
      "mapped.example.org": ["::ffff:127.0.0.1"],
      "metadata.example.org": ["169.254.169.254"],
    });
    expect(await checkEndpointUrl("https://hooks.example.org/in", false, dns)).toMatchObject({ ok: true });
    expect(await checkEndpointUrl("https://rebind.example.org/in", false, dns)).toMatchObject({ ok: false, message: expect.stringContaining("must be public") });
    expect(await checkEndpointUrl("https://mapped.example.org/in", false, dns)).toMatchObject({ ok: false });
    expect(await checkEndpointUrl("https://metadata.example.org/", false, dns)).toMatchObject({ ok: false });
    expect(await checkEndpointUrl("https://nowhere.example.org/", false, dns)).toEqual({ ok: false, message: "The address's host name could not be found" });
    expect(await checkEndpointUrl("http://hooks.example.org/in", false, dns)).toEqual({ ok: false, message: "The address must start with https://" });
    expect(await checkEndpointUrl("https://user:pw@hooks.example.org/", false, dns)).toMatchObject({ ok: false, message: expect.stringContaining("user name") });
    expect(await checkEndpointUrl("not a url", false, dns)).toMatchObject({ ok: false });
    expect(await checkEndpointUrl("ftp://hooks.example.org/", false, dns)).toMatchObject({ ok: false });
    // Literals, in every spelling the URL parser reads as the same address.
    for (const literal of [
      "https://127.0.0.1/",
      "https://2130706433/",
      "https://0x7f.1/",
      "https://[::1]/",
      "https://[::ffff:7f00:1]/",
      "https://[fe80::1]/",
      "https://10.0.0.1:8443/",
    ]) {
      expect(await checkEndpointUrl(literal, false, dns), literal).toMatchObject({ ok: false, message: expect.stringContaining("must be public") });
    }
    expect(await checkEndpointUrl("https://8.8.8.8/", false, dns)).toMatchObject({ ok: true });
    // WEBHOOK_ALLOW_PRIVATE=true: anything well formed, plain http too.
    expect(await checkEndpointUrl("http://127.0.0.1:9/in", true, dns)).toMatchObject({ ok: true });
    expect(await checkEndpointUrl("ftp://127.0.0.1/", true, dns)).toMatchObject({ ok: false });
  });

  it("pins the socket to the address it checked, at every lookup (DNS rebinding reaches nothing private)", async () => {
    let calls = 0;
    // A name that answers a public address first, then a private one.
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const lookup = pinnedLookup(false, rebinding);
    const ask = (all: boolean) =>
      new Promise<unknown>((resolve) =>
        lookup("rebind.example.org", { all }, (error: Error | null, address: unknown, family?: number) => resolve(error ?? (all ? address : { address, family }))),
      );
    expect(await ask(true)).toEqual([{ address: "93.184.216.34", family: 4 }]);
    expect(await ask(false)).toBeInstanceOf(AddressRefusedError);
    await expect(checkedAddress("::1", false)).rejects.toBeInstanceOf(AddressRefusedError);
    expect(await checkedAddress("::1", true)).toEqual({ address: "::1", family: 6 });
  });

  describe("at delivery", () => {
    let server: http.Server;
    let port = 0;
    let received = 0;
    beforeAll(async () => {
      server = http.createServer((request, response) => {
        received += 1;
        request.resume();
        response.writeHead(200).end("ok");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("refuses a loopback receiver, by address or by a name that resolves to it, unless private addresses are allowed", async () => {
      const settings = { allowPrivate: false, leaseSeconds: 5, retryScale: 1, resolve: answers({ "sneaky.example.org": ["127.0.0.1"] }) };
      expect(await post(new URL(`http://127.0.0.1:${port}/`), {}, "{}", settings)).toMatchObject({ outcome: "refused", statusCode: null });
      expect(await post(new URL(`http://sneaky.example.org:${port}/`), {}, "{}", settings)).toMatchObject({ outcome: "refused", statusCode: null });
      expect(received).toBe(0);
      expect(await post(new URL(`http://sneaky.example.org:${port}/`), {}, "{}", { ...settings, allowPrivate: true })).toMatchObject({
        outcome: "delivered",
        statusCode: 200,
        response: "ok",
      });
      expect(received).toBe(1);
      // Nothing listens: an error, not a refusal.
      expect(await post(new URL("http://127.0.0.1:9/"), {}, "{}", { ...settings, allowPrivate: true })).toMatchObject({
        outcome: "error",
        error: expect.stringContaining("ECONNREFUSED"),
      });
    });
  });
});
