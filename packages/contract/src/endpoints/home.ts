import { z } from "zod";
import { pagedAnswer } from "../answers";
import { HomeConfigRowAnswer, UserHomeAnswer } from "../answers/home";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import {
  CreateHomeConfigBody,
  DeleteHomeConfigBody,
  HomeConfigListQuery,
  type HomeConfigRow,
  UpdateHomeConfigBody,
  type UserHome,
} from "../home";

/** The home content endpoints (see endpoint.ts). */
export const HomeApi = {
  getUserHome: endpoint<UserHome>()({
    method: "GET",
    url: "/user/home",
    access: "user",
    answer: UserHomeAnswer,
    summary: "the dashboard's carousel, notices and quote (published only, sorted)",
  }),
  getSuperConfigIndex: endpoint<Paged<HomeConfigRow>>()({
    method: "GET",
    url: "/super/config/index",
    access: "manager",
    answer: pagedAnswer(HomeConfigRowAnswer),
    summary: "home content entries, paged and filtered",
    query: HomeConfigListQuery,
  }),
  postSuperConfigIndex: endpoint<HomeConfigRow>()({
    method: "POST",
    url: "/super/config/index",
    access: "manager",
    answer: HomeConfigRowAnswer,
    summary: "adds a carousel item, notice or quote",
    body: CreateHomeConfigBody,
  }),
  patchSuperConfigIndex: endpoint<HomeConfigRow>()({
    method: "PATCH",
    url: "/super/config/index",
    access: "manager",
    answer: HomeConfigRowAnswer,
    summary: "changes the fields given in param",
    body: UpdateHomeConfigBody,
  }),
  deleteSuperConfigIndex: endpoint<null>()({
    method: "DELETE",
    url: "/super/config/index",
    access: "manager",
    answer: z.null(),
    summary: "deletes an entry",
    body: DeleteHomeConfigBody,
  }),
} as const;
