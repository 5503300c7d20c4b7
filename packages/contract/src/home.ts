import { z } from "zod";
import { optionalText, PageQuery } from "./common";
import { Id } from "./nodes";

/** Home content kinds (SPEC "Home content config" data_type). */
export const HomeKind = { Carousel: 1, Notice: 2, Quote: 3 } as const;
export const HomeKindLabels: Record<number, string> = { 1: "轮播", 2: "公告", 3: "一句话" };

/**
 * A link an operator may put on the dashboard: http(s) or site-relative ("/doc/…", never "//host").
 * Anything else (javascript:, data:, protocol-relative) is refused.
 */
export const SafeLink = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === "" || isSafeHref(v), "链接只能是 http(s) 地址或以 / 开头的站内路径");

/** True for http(s) URLs and site-relative paths; the one rule shared by the server and the markdown renderer. */
export function isSafeHref(v: string): boolean {
  if (/^\/(?![/\\])/.test(v)) return !/[\s<>"']/.test(v);
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && !/[\s<>"']/.test(v);
  } catch {
    return false;
  }
}

const fields = {
  data_type: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: "类型只能是 1 轮播、2 公告、3 一句话" }),
  title: z.string().trim().min(1, "请输入标题").max(100),
  /** #rgb or #rrggbb; "" means the theme's default */
  title_color: z
    .string()
    .trim()
    .regex(/^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})?$/, "标题颜色应为 #RGB 或 #RRGGBB"),
  /** plain text or the small markdown subset (bold, italic, links) */
  content: z.string().max(5000),
  link: SafeLink,
  sort: z.number().int().min(0).max(1_000_000),
  /** published: shown on the customer dashboard */
  addon: z.object({ published: z.boolean() }).strict(),
};

/** GET /super/config/index */
export const HomeConfigListQuery = PageQuery.extend({
  data_type: z.preprocess((v) => (v === "" || v === undefined ? undefined : Number(v)), fields.data_type.optional()),
  title: optionalText(100),
  content: optionalText(100),
});
export type HomeConfigListQuery = z.infer<typeof HomeConfigListQuery>;

/** POST /super/config/index */
export const CreateHomeConfigBody = z.object({
  data_type: fields.data_type,
  title: fields.title,
  title_color: fields.title_color.default(""),
  content: fields.content.default(""),
  link: fields.link.default(""),
  sort: fields.sort.default(0),
  addon: fields.addon.default({ published: true }),
});
export type CreateHomeConfigBody = z.infer<typeof CreateHomeConfigBody>;

/** PATCH /super/config/index: id plus a param object of the changed fields (SPEC §7). */
export const UpdateHomeConfigBody = z.object({
  id: Id,
  param: z
    .object({
      data_type: fields.data_type.optional(),
      title: fields.title.optional(),
      title_color: fields.title_color.optional(),
      content: fields.content.optional(),
      link: fields.link.optional(),
      sort: fields.sort.optional(),
      addon: fields.addon.optional(),
    })
    .strict(),
});
export type UpdateHomeConfigBody = z.infer<typeof UpdateHomeConfigBody>;

/** DELETE /super/config/index (body) */
export const DeleteHomeConfigBody = z.object({ id: Id });

/** One home content entry. */
export interface HomeConfigRow {
  id: number;
  data_type: 1 | 2 | 3;
  title: string;
  title_color: string;
  content: string;
  link: string;
  sort: number;
  addon: { published: boolean };
  created_at: string;
  updated_at: string;
}

/** GET /user/home: published entries, by sort then id; quote is the first published quote. */
export interface UserHome {
  carousel: HomeConfigRow[];
  notices: HomeConfigRow[];
  quote: HomeConfigRow | null;
}
