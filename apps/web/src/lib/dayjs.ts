import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import timezone from "dayjs/plugin/timezone";
import updateLocale from "dayjs/plugin/updateLocale";
import utc from "dayjs/plugin/utc";

/*
 * dayjs set-up: UTC/time-zone plugins and the zh-cn locale with Monday as the first day of the week
 * (antd's DatePicker follows it). Every module that shows dates or renders a date picker imports
 * this file (directly or through lib/format.ts); it stays out of the entry chunk so /login does not
 * pay for it.
 */

/** Times are shown in the service's home time zone, whatever the browser's. */
export const DISPLAY_TZ = "Asia/Shanghai";

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(updateLocale);
dayjs.locale("zh-cn");
// zh-cn already starts weeks on Monday; pinning it keeps antd's DatePicker Monday-first whatever the locale file says.
dayjs.updateLocale("zh-cn", { weekStart: 1 });

export { dayjs };
