import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, SECRET_PREFIX, signature, signedHeaders } from "./signing.server";

describe("webhook signatures in the Standard Webhooks form", () => {
  const body = JSON.stringify({ type: "interview.shared", timestamp: "2031-03-01T12:00:00.000Z", data: { share_id: "s1", links: { self: "/api/v1/shared-interviews/s1" } } });

  it("makes whsec_ secrets of 32 random bytes", () => {
    const secret = newWebhookSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(SECRET_PREFIX.length), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("signs id.timestamp.body so that the standardwebhooks library verifies it, and nothing altered verifies", () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], "msg_1", body, new Date());
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace("s1", "s2"), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "msg_2" })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    // An old timestamp (a replay) is refused by the receiver's library.
    const old = signedHeaders([secret], "msg_1", body, new Date(Date.now() - 10 * 60_000));
    expect(() => new Webhook(secret).verify(body, old)).toThrow();
  });

  it("signs with both secrets while a rotated one is honoured: receivers on either verify", () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders([current, previous], "msg_9", body, new Date());
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    // The known answer: HMAC-SHA256 over "msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}" (the specification's example).
    expect(signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
  });
});
