// Turns the key trees main.go prints (one JSON file per frp version) into src/frp-config-keys.json
// (data, read by src/strict-config.ts). Generated: do not edit the output by hand.
// Usage: node to-json.mjs 0.61.2=keys-0.61.2.json 0.70.1=keys-0.70.1.json > ../../src/frp-config-keys.json
import fs from "node:fs";

const conv = (n) => {
  if (n === null) return 0;
  if (n.items) return [conv(n.items)];
  return Object.fromEntries(
    Object.keys(n.k)
      .sort()
      .map((k) => [k, conv(n.k[k])]),
  );
};
const sets = {};
for (const arg of process.argv.slice(2)) {
  const [version, file] = arg.split("=");
  const d = JSON.parse(fs.readFileSync(file, "utf8"));
  const each = (m) =>
    Object.fromEntries(
      Object.keys(m)
        .sort()
        .map((k) => [k, conv(m[k])]),
    );
  sets[version] = {
    server: conv(d.server),
    clientCommon: conv(d.clientCommon),
    proxies: each(d.proxies),
    visitors: each(d.visitors),
    plugins: each(d.plugins),
    visitorPlugins: each(d.visitorPlugins),
  };
}
process.stdout.write(`${JSON.stringify(sets, null, 2)}\n`);
