import type { NoticeView } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge, Button, Card, Empty, List, Pagination, Segmented, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { markAllNoticesRead, markNoticeRead, noticesKeys, noticesQuery } from "../notices.api";

/** The notices, newest first: unread ones marked; read one (or open its link) or read all. */
export function NoticeList() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const { data, isLoading } = useQuery(noticesQuery(page, unreadOnly));
  const refresh = () => queryClient.invalidateQueries({ queryKey: noticesKeys.all });
  const readOne = useMutation({ mutationFn: markNoticeRead, onSuccess: refresh });
  const readAll = useMutation({
    mutationFn: markAllNoticesRead,
    onSuccess: (r) => {
      feedback.success(r.count ? `已将 ${r.count} 条标记为已读` : "没有未读消息");
      return refresh();
    },
  });

  const item = (n: NoticeView) => (
    <List.Item
      key={n.id}
      actions={[
        n.link ? (
          <Link key="open" to={n.link} onClick={() => !n.read && readOne.mutate(n.id)}>
            查看
          </Link>
        ) : null,
        n.read ? null : (
          <Button key="read" type="link" size="small" onClick={() => readOne.mutate(n.id)}>
            标为已读
          </Button>
        ),
      ].filter(Boolean)}
    >
      <List.Item.Meta
        title={
          <Space size={8} wrap>
            {n.read ? null : <Badge status="processing" aria-label="未读" />}
            <Typography.Text strong={!n.read}>{n.title}</Typography.Text>
            <Tag>{n.label}</Tag>
          </Space>
        }
        description={
          <>
            <Typography.Paragraph style={{ marginBottom: 4 }}>{n.body}</Typography.Paragraph>
            <Typography.Text type="secondary">{formatTime(n.created_at)}</Typography.Text>
          </>
        }
      />
    </List.Item>
  );

  return (
    <Card
      title={
        <Segmented
          value={unreadOnly ? "unread" : "all"}
          onChange={(v) => {
            setUnreadOnly(v === "unread");
            setPage(1);
          }}
          options={[
            { value: "all", label: "全部" },
            { value: "unread", label: "未读" },
          ]}
        />
      }
      extra={
        <Button onClick={() => readAll.mutate()} loading={readAll.isPending}>
          全部标为已读
        </Button>
      }
    >
      <List
        loading={isLoading}
        dataSource={data?.list ?? []}
        renderItem={item}
        locale={{ emptyText: <Empty description={unreadOnly ? "没有未读消息" : "暂无消息"} /> }}
      />
      {data && data.total > data.size ? (
        <Pagination
          style={{ marginTop: 16, textAlign: "right" }}
          current={page}
          pageSize={data.size}
          total={data.total}
          onChange={setPage}
          showSizeChanger={false}
        />
      ) : null}
    </Card>
  );
}
