import assert from "node:assert/strict";
import { isPrivateHost, isPublicAddress } from "./network_address.ts";

Deno.test("isPublicAddress() accepts public unicast only", () => {
  for (const ip of ["8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) {
    assert.equal(isPublicAddress(ip), true, ip);
  }
  for (
    const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.1.1",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
      "64:ff9b::7f00:1",
      "not-an-ip",
      "999.1.1.1",
    ]
  ) {
    assert.equal(isPublicAddress(ip), false, ip);
  }
});

Deno.test("isPrivateHost() refuses loopback, private, link-local and internal names, not public ones", () => {
  for (const host of ["localhost", "a.localhost", "printer.local", "db.internal", "127.0.0.1", "10.0.0.8", "172.16.4.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "[::1]", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "192.0.2.1", "64:ff9b::a00:1"]) {
    assert.equal(isPrivateHost(host), true, host);
  }
  for (const host of ["example.com", "8.8.8.8", "172.32.0.1", "2001:4860:4860::8888", "hooks.crm.io"]) {
    assert.equal(isPrivateHost(host), false, host);
  }
});
