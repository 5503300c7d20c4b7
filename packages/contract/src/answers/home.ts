import { z } from "zod";
import { int, time } from "../answers";

/* Answers of the customer home page's endpoints (carousel, notices, quote). */

export const HomeConfigRowAnswer = z.strictObject({
  id: int(),
  data_type: z.union([z.literal(1), z.literal(2), z.literal(3)]).describe("1 carousel, 2 notice, 3 quote"),
  title: z.string(),
  title_color: z.string(),
  content: z.string(),
  link: z.string(),
  sort: int(),
  addon: z.strictObject({ published: z.boolean() }),
  created_at: time(),
  updated_at: time(),
});

export const UserHomeAnswer = z.strictObject({
  carousel: z.array(HomeConfigRowAnswer),
  notices: z.array(HomeConfigRowAnswer),
  quote: HomeConfigRowAnswer.nullable(),
});
