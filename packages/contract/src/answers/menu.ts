import { z } from "zod";
import { MenuIconKeys, type MenuItem } from "../menu";

/* The sidebar menus' answer (issue 34 §2): a tree. */

export const MenuItemAnswer: z.ZodType<MenuItem> = z.strictObject({
  name: z.string(),
  id: z.string(),
  path: z.string().describe("admin paths relative to /admin"),
  icon: z.enum(MenuIconKeys),
  get children() {
    return z.array(MenuItemAnswer).optional();
  },
});
