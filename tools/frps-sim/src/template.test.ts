import { describe, expect, it } from "vitest";
import { parseFrpcConfig } from "./frpc";
import { renderFrpcTemplate } from "./template";

const RANGE = `serverAddr = "127.0.0.1"
{{- range $_, $v := parseNumberRangePair "6000-6001,6005" "7000-7002" }}
[[proxies]]
name = "tcp-{{ $v.First }}"
type = "tcp"
localPort = {{ $v.First }}
remotePort = {{ $v.Second }}
{{- end }}
`;

describe("frpc's config template (port ranges)", () => {
  it("expands parseNumberRangePair from frpc 0.56.0 on, as frp's docs write it", () => {
    const cfg = parseFrpcConfig(RANGE, "0.61.2");
    expect(cfg.proxies.map((p) => [p.name, p.localPort, p.remotePort])).toEqual([
      ["tcp-6000", 6000, 7000],
      ["tcp-6001", 6001, 7001],
      ["tcp-6005", 6005, 7002],
    ]);
    const one = renderFrpcTemplate('{{- range $_, $p := parseNumberRange "1-2" }}\nx={{ $p }}{{- end }}', "0.70.1");
    expect(one).toBe("\nx=1\nx=2");
  });

  it("fails before 0.56.0 as frpc does, and on unequal ranges or an action it does not follow", () => {
    expect(() => parseFrpcConfig(RANGE, "0.52.3")).toThrow('function "parseNumberRangePair" not defined');
    expect(() => renderFrpcTemplate(RANGE.replace('"7000-7002"', '"7000-7001"'), "0.70.1")).toThrow("not in pairs");
    expect(() => renderFrpcTemplate('a = "{{ .Envs.X }}"', "0.70.1")).toThrow("not simulated");
    // no action: the file as it is
    expect(renderFrpcTemplate('name = "t_1"', "0.52.3")).toBe('name = "t_1"');
  });
});
