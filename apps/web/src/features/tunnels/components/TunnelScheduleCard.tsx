import {
  SCHEDULE_MAX_DAYS,
  SCHEDULE_MAX_WINDOWS,
  ScheduleWindow,
  type TunnelSchedule,
  type TunnelScheduleBody,
  type TunnelView,
  WeekdayLabel,
} from "@burrow/contract";
import { RiAddLine, RiDeleteBinLine } from "@remixicon/react";
import { useMutation } from "@tanstack/react-query";
import { Button, Card, DatePicker, Form, Input, Select, Space, Tag, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { DISPLAY_TZ, dayjs } from "@/lib/dayjs";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { fieldRules, schemaRule } from "@/lib/rules";
import { clearTunnelSchedule, setTunnelSchedule } from "../tunnels.api";

const OPEN_FOR = [
  { minutes: 15, label: "开放 15 分钟" },
  { minutes: 60, label: "开放 1 小时" },
  { minutes: 240, label: "开放 4 小时" },
] as const;

const dayOptions = Object.entries(WeekdayLabel).map(([day, label]) => ({ value: Number(day), label }));

/** The schedule in words: "开放至 2026-11-30 18:00" or "周一 09:00–18:00；周五 20:00–02:00". */
export function scheduleText(s: TunnelSchedule): string {
  if (s.kind === "until") return `开放至 ${formatTime(s.until).slice(0, 16)}`;
  return s.windows.map((w) => `${WeekdayLabel[w.day]} ${w.start}–${w.end}`).join("；");
}

/** A tunnel's 定时开放 note ("将于 18:00 关闭"), or nothing when it has no schedule. */
export function ScheduleNote({ tunnel }: { tunnel: Pick<TunnelView, "schedule_note"> }) {
  if (!tunnel.schedule_note) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {tunnel.schedule_note}
    </Typography.Text>
  );
}

interface UntilValues {
  until: Dayjs;
}
interface WeeklyValues {
  windows: ScheduleWindow[];
}

/**
 * 定时开放 on the tunnel page: open for 15 min / 1 h / 4 h, until a time (at most 7 days), or in
 * weekly windows (Asia/Shanghai); outside them frps refuses the tunnel and cuts its session at the
 * next heartbeat. 取消定时 opens it at all times again.
 */
export function TunnelScheduleCard({
  tunnel,
  disabled,
  onChanged,
}: {
  tunnel: TunnelView;
  disabled: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const [modal, setModal] = useState<"until" | "weekly" | null>(null);
  const put = (body: TunnelScheduleBody) => setTunnelSchedule(tunnel.tun_id, body).then(onChanged);
  const quick = useMutation({
    mutationFn: (minutes: number) => put({ mode: "for", minutes }),
    onSuccess: () => feedback.success("定时开放已设置"),
  });
  const clear = useMutation({
    mutationFn: () => clearTunnelSchedule(tunnel.tun_id).then(onChanged),
    onSuccess: () => feedback.success("已取消定时，隧道始终开放"),
  });
  const s = tunnel.schedule;

  return (
    <Card title="定时开放" className="tunnel-schedule-card">
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <Space wrap>
          {s ? (
            <Typography.Text>{scheduleText(s)}</Typography.Text>
          ) : (
            <Typography.Text>始终开放（未设置定时）</Typography.Text>
          )}
          {tunnel.schedule_note ? <Tag color="blue">{tunnel.schedule_note}</Tag> : null}
        </Space>
        <Typography.Text type="secondary">
          时间按北京时间计算。不在开放时间内时，节点拒绝这条隧道的连接和访客，已连接的会话在下一次心跳时断开，frpc
          日志会说明下次开放的时间。
        </Typography.Text>
        <Space wrap>
          {OPEN_FOR.map((o) => (
            <Button
              key={o.minutes}
              disabled={disabled}
              loading={quick.isPending && quick.variables === o.minutes}
              onClick={() => quick.mutate(o.minutes)}
            >
              {o.label}
            </Button>
          ))}
          <Button disabled={disabled} onClick={() => setModal("until")}>
            开放至…
          </Button>
          <Button disabled={disabled} onClick={() => setModal("weekly")}>
            每周时段…
          </Button>
          {s ? (
            <Button danger disabled={disabled} loading={clear.isPending} onClick={() => clear.mutate()}>
              取消定时
            </Button>
          ) : null}
        </Space>
      </Space>
      <FormModal<UntilValues>
        open={modal === "until"}
        title="开放至指定时间"
        okText="保存"
        successText="定时开放已设置"
        onSubmit={(v) =>
          put({ mode: "until", until: dayjs.tz(v.until.format("YYYY-MM-DD HH:mm"), DISPLAY_TZ).toISOString() })
        }
        onClose={() => setModal(null)}
      >
        <Form.Item
          name="until"
          label="开放至（北京时间）"
          extra={`最多 ${SCHEDULE_MAX_DAYS} 天`}
          rules={fieldRules("结束时间", { required: true })}
        >
          <DatePicker
            showTime={{ format: "HH:mm" }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: "100%" }}
            disabledDate={(d) => d.isBefore(dayjs(), "day") || d.isAfter(dayjs().add(SCHEDULE_MAX_DAYS, "day"), "day")}
          />
        </Form.Item>
      </FormModal>
      <FormModal<WeeklyValues>
        open={modal === "weekly"}
        title="每周开放时段"
        width={620}
        initialValues={{
          windows: s?.kind === "weekly" ? s.windows : [{ day: 1, start: "09:00", end: "18:00" }],
        }}
        successText="定时开放已设置"
        onSubmit={(v) => put({ mode: "weekly", windows: v.windows })}
        onClose={() => setModal(null)}
      >
        <Typography.Paragraph type="secondary">
          北京时间，格式 HH:mm；结束时间早于开始时间表示到次日结束（如 22:00–02:00），24:00 表示当天结束。
        </Typography.Paragraph>
        <Form.List name="windows">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f, i) => (
                <Space key={f.key} align="baseline" wrap>
                  <Form.Item name={[f.name, "day"]} rules={fieldRules("星期", { required: true, choice: true })}>
                    <Select aria-label={`第 ${i + 1} 个时段的星期`} options={dayOptions} style={{ width: 90 }} />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, "start"]}
                    rules={[...fieldRules("开始时间", { required: true }), schemaRule(ScheduleWindow.shape.start)]}
                  >
                    <Input aria-label={`第 ${i + 1} 个时段的开始时间`} placeholder="09:00" style={{ width: 100 }} />
                  </Form.Item>
                  <Typography.Text>至</Typography.Text>
                  <Form.Item
                    name={[f.name, "end"]}
                    rules={[...fieldRules("结束时间", { required: true }), schemaRule(ScheduleWindow.shape.end)]}
                  >
                    <Input aria-label={`第 ${i + 1} 个时段的结束时间`} placeholder="18:00" style={{ width: 100 }} />
                  </Form.Item>
                  <Button
                    type="text"
                    aria-label={`删除第 ${i + 1} 个时段`}
                    icon={<RiDeleteBinLine size={16} />}
                    onClick={() => remove(f.name)}
                  />
                </Space>
              ))}
              <Button
                icon={<RiAddLine size={16} />}
                disabled={fields.length >= SCHEDULE_MAX_WINDOWS}
                onClick={() => add({ day: 1, start: "09:00", end: "18:00" })}
              >
                添加时段
              </Button>
            </>
          )}
        </Form.List>
      </FormModal>
    </Card>
  );
}
