import { OidcApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { adminToken, call } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";

/**
 * Issue 30 §9: editing a provider, the stored client secret may stay empty only while the issuer
 * and the client id are the ones it was given for; the form asks for it again otherwise.
 */
test("an operator moving a provider to another issuer must enter its client secret again", async ({ page }) => {
  const token = await adminToken();
  const name = `换签发者${Date.now() % 10_000}`;
  // Disabled: no sign-in button for it on the other specs' login pages.
  const provider = await call(OidcApi.postSuperOidc, {
    token,
    body: { name, issuer: "https://idp.example.com", client_id: "burrow", client_secret: "old-secret", enabled: false },
  });
  try {
    await openSignedIn(page, token, "/admin/oidc");
    await page
      .getByRole("row", { name: new RegExp(name) })
      .getByRole("button", { name: "编辑" })
      .click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("已保存，留空则不修改；更改签发者地址或 Client ID 时须重新输入")).toBeVisible();

    await dialog.getByLabel("签发者地址（Issuer）").fill("https://idp.elsewhere.example");
    await expect(dialog.getByText("已更改签发者地址或 Client ID：须重新输入 Client Secret")).toBeVisible();
    await dialog.getByRole("button", { name: "保存" }).click();
    await expect(dialog.getByText("请输入Client Secret")).toBeVisible();
    expect((await call(OidcApi.getSuperOidc, { token })).find((p) => p.id === provider.id)?.issuer).toBe(
      "https://idp.example.com",
    );

    await dialog.getByLabel("Client Secret").fill("new-secret");
    await dialog.getByRole("button", { name: "保存" }).click();
    await expect(page.getByText("登录方式已保存")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("https://idp.elsewhere.example");
  } finally {
    await call(OidcApi.deleteSuperOidc, { token, body: { id: provider.id } });
  }
});
