import { describe, expect, it } from "vitest";
import { linkConsolePaths } from "./components/ChatBubble";

describe("linkConsolePaths", () => {
  it("makes the console paths an answer names into links", () => {
    expect(linkConsolePaths("请在隧道列表（/tun/list/12）修改，再看 /doc/errors#login。")).toBe(
      "请在隧道列表（[/tun/list/12](/tun/list/12)）修改，再看 [/doc/errors#login](/doc/errors#login)。",
    );
  });

  it("leaves other paths, URLs and file paths alone", () => {
    for (const s of ["https://example.com/tun/list", "/etc/frp/frpc.toml", "/usr/local/bin/frpc", "a/tun/list"])
      expect(linkConsolePaths(s)).toBe(s);
  });
});
