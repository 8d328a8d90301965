/** IPv6 addresses that embed an IPv4 address (docs/webhooks.md, "URL rules"). */

/** [host in the URL, the address as the URL parser writes it, what it embeds] */
export const REFUSED: Array<[string, string, string]> = [
  ["[::127.0.0.1]", "::7f00:1", "127.0.0.1, which is a loopback address"], // IPv4-compatible
  ["[::10.1.2.3]", "::a01:203", "10.1.2.3, which is a private address"],
  ["[::ffff:127.0.0.1]", "::ffff:7f00:1", "127.0.0.1, which is a loopback address"], // IPv4-mapped
  ["[::ffff:192.168.1.10]", "::ffff:c0a8:10a", "192.168.1.10, which is a private address"],
  ["[::ffff:0:169.254.169.254]", "::ffff:0:a9fe:a9fe", "169.254.169.254, which is a link-local address"], // IPv4-translated
  ["[64:ff9b::127.0.0.1]", "64:ff9b::7f00:1", "127.0.0.1, which is a loopback address"], // NAT64
  ["[64:ff9b::169.254.169.254]", "64:ff9b::a9fe:a9fe", "169.254.169.254, which is a link-local address"],
  ["[2002:7f00:1::1]", "2002:7f00:1::1", "127.0.0.1, which is a loopback address"], // 6to4
  ["[2002:c0a8:10a::]", "2002:c0a8:10a::", "192.168.1.10, which is a private address"],
  ["[2001:0:4136:e378:8000:63bf:80ff:fffe]", "2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1, which is a loopback address"], // Teredo client
  ["[2001:0:a01:203::f7f7:f7f7]", "2001:0:a01:203::f7f7:f7f7", "10.1.2.3, which is a private address"], // Teredo server
];

/** The same public address, 93.184.216.34, in each embedding form. */
export const ACCEPTED = [
  "[::93.184.216.34]",
  "[::ffff:93.184.216.34]",
  "[::ffff:0:93.184.216.34]",
  "[64:ff9b::93.184.216.34]",
  "[2002:5db8:d822::1]",
  "[2001:0:4136:e378:8000:63bf:a247:27dd]",
];
