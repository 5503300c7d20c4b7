import { type AdminPlan, type CreatedGiftCards, type GiftCardRow, Kind } from "@burrow/contract";
import { Form, Radio, Row } from "antd";
import { FormModal } from "@/components/FormModal";
import { HalfCol } from "@/components/form/HalfCol";
import { NumberItem } from "@/components/form/NumberItem";
import { fieldRules } from "@/lib/rules";
import {
  emptyGiftCardForm,
  type GiftCardEditForm,
  type GiftCardForm,
  giftCardPatch,
  giftCardsBody,
  giftCardToForm,
} from "../forms";
import { createGiftCards, updateGiftCard } from "../marketing.api";
import { GiftCardFields } from "./GiftCardFields";

/** 生成礼品卡: a batch of `count` cards; `onCreated` gets the batch (its numbers). */
export function GiftCardCreateModal({
  open,
  plans,
  onCreated,
  onClose,
}: {
  open: boolean;
  plans: AdminPlan[];
  onCreated: (batch: CreatedGiftCards) => Promise<unknown>;
  onClose: () => void;
}) {
  return (
    <FormModal<GiftCardForm>
      open={open}
      title="生成礼品卡"
      initialValues={emptyGiftCardForm}
      onSubmit={async (v) => {
        await onCreated(await createGiftCards(giftCardsBody(v)));
      }}
      onClose={onClose}
      okText="生成"
      width={640}
    >
      <Row gutter={16}>
        <HalfCol>
          <NumberItem name="count" label="数量（张）" ruleLabel="数量" required min={1} max={1000} precision={0} />
        </HalfCol>
        <HalfCol>
          <Form.Item name="type" label="类型" rules={fieldRules("类型", { required: true, choice: true })}>
            <Radio.Group
              options={[
                { value: Kind.Balance, label: "余额卡" },
                { value: Kind.Plan, label: "套餐卡" },
              ]}
            />
          </Form.Item>
        </HalfCol>
        <Form.Item noStyle shouldUpdate={(a: GiftCardForm, b: GiftCardForm) => a.type !== b.type}>
          {({ getFieldValue }) => <GiftCardFields kind={getFieldValue("type")} plans={plans} />}
        </Form.Item>
      </Row>
    </FormModal>
  );
}

/** Edits an unused card (`editing`; closed when null): only what changed is sent. */
export function GiftCardEditModal({
  editing,
  plans,
  onSaved,
  onClose,
}: {
  editing: GiftCardRow | null;
  plans: AdminPlan[];
  onSaved: () => Promise<unknown>;
  onClose: () => void;
}) {
  return (
    <FormModal<GiftCardEditForm>
      open={editing !== null}
      title={editing ? `编辑礼品卡 · ${editing.card_number}` : "编辑礼品卡"}
      initialValues={editing ? giftCardToForm(editing) : undefined}
      onSubmit={async (v) => {
        if (!editing) return;
        await updateGiftCard(giftCardPatch(editing, v));
        await onSaved();
      }}
      onClose={onClose}
      successText="礼品卡已保存"
      width={640}
    >
      <Row gutter={16}>
        <GiftCardFields kind={editing?.type ?? Kind.Balance} plans={plans} />
      </Row>
    </FormModal>
  );
}
