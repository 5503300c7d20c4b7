import { describe, expect, it } from "vitest";
import { redactProviderText } from "./provider";

describe("redactProviderText (what the log may keep of a provider's error)", () => {
  const KEY = "sk-live-0123456789abcdefABCDEF";
  it.each([
    ["the configured key", `Incorrect API key provided: ${KEY}.`, [KEY, "0123456789abcdef"]],
    ["OpenAI's masked form", "Incorrect API key provided: sk-proj-abcd********************wxyz.", ["abcd***", "wxyz"]],
    ["another sk- key", 'key "sk-ant-api03-Zx9_yy-00" is invalid', ["Zx9_yy"]],
    ["a header", "Authorization: Bearer abcdef0123456789xyz", ["abcdef0123456789xyz"]],
    ["an id.secret key", "api key 8f14e45fceea167a5a36dedd4bea2543.Xy12Zw34Ab56Cd78 expired", ["8f14e45f", "Xy12Zw34"]],
    ["a key= line", "api_key=hunter2hunter2 rejected", ["hunter2"]],
  ])("blanks out %s", (_, text, gone) => {
    const out = redactProviderText(text, KEY);
    for (const g of gone) expect(out).not.toContain(g);
    expect(out).toContain("[已隐藏]");
  });

  it("keeps the words that say what went wrong", () => {
    const out = redactProviderText(
      "HTTP 429: Rate limit reached for gpt-4o in organization on requests per min. Please try again in 20s.",
      KEY,
    );
    expect(out).toBe(
      "HTTP 429: Rate limit reached for gpt-4o in organization on requests per min. Please try again in 20s.",
    );
  });
});
