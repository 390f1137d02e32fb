// Responses shaped as the service's public description allows (docs/contract/conventions.md#ids, docs/contract/endpoints/messages.md), which the
// emulator never sends, through the client over loopback: what the real service may send must parse.
// - "Ids: … the public description only promises the 8-4-4-4-12 hex form; a client should accept any
//   such string" — one id without RFC 4122 version/variant digits must not fail a whole list page;
// - "A message-send response item has `id: null` (with `status: "error"` and an `error` text) for a
//   recipient that was not sent".
import { MessageCreationResponse, Route, paths } from "../../../provider/api";
import { closeSharedDispatchers, createClient } from "../../../provider/client";
import { startStub, type StubServer } from "./stubServer";
import { routeRecord } from "../../fixtures/records";

let stub: StubServer;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(() => stub.close());
afterAll(() => closeSharedDispatchers());

const client = () =>
  createClient({ apiKey: stub.apiKey, accountId: stub.accountId, baseUrl: stub.baseUrl, rateLimit: false });

const route = (id: string, name: string) =>
  routeRecord({
    id,
    created_at: "2026-11-23T10:00:00Z",
    updated_at: "2026-11-23T10:00:00Z",
    name,
    url: "https://example.com/inbound",
  });

test("a list page with ids in the 8-4-4-4-12 hex form but not RFC 4122 versioned parses whole", async () => {
  const page = {
    object: "list",
    data: [
      route("0f8fad5b-d9cb-469f-a165-70867728950e", "rfc-v4"),
      route("12345678-1234-1234-1234-123456789abc", "version-1-digit-variant-1"),
      route("00000000-0000-0000-0000-00000000000a", "version-0"),
      route("ABCDEF01-2345-6789-ABCD-EF0123456789", "upper-case"),
    ],
    pagination: { has_more: false, next_cursor: null, previous_cursor: null },
  };
  stub.inject({ mode: "body", body: page });
  const names: string[] = [];
  for await (const r of client().list(paths.routes(stub.accountId), Route)) names.push(r.name);
  expect(names).toEqual(["rfc-v4", "version-1-digit-variant-1", "version-0", "upper-case"]);
});

test("an id that is not 8-4-4-4-12 hex is still refused, naming the field", async () => {
  stub.inject({
    mode: "body",
    body: {
      object: "list",
      data: [route("12345678-1234-1234-1234-123456789abz", "bad")],
      pagination: { has_more: false },
    },
  });
  const iterate = async () => {
    for await (const _ of client().list(paths.routes(stub.accountId), Route));
  };
  await expect(iterate()).rejects.toThrow(/data\[0\]\.id: must be an id: 8-4-4-4-12 hexadecimal digits/);
});

test("a message-send response with a recipient that was not sent (id: null) parses", async () => {
  const response = {
    object: "list",
    data: [
      {
        object: "message",
        id: "<3f1c2a9e@mail.example.com>",
        recipient: { email: "ok@example.org", name: "Ok" },
        status: "queued",
        error: null,
      },
      {
        object: "message",
        id: null,
        recipient: { email: "gone@example.org", name: "" },
        status: "error",
        error: "gone@example.org: recipient is suppressed",
      },
    ],
  };
  stub.inject({ mode: "body", body: response });
  const body = {
    from: { email: "a@mail.example.com" },
    recipients: [{ email: "ok@example.org" }, { email: "gone@example.org" }],
    subject: "s",
    text_content: "t",
  };
  const { data } = await client().post(paths.messages(stub.accountId), body, MessageCreationResponse, {
    idempotencyKey: "public-shape-send",
  });
  expect(data.data.map((m) => [m.id, m.status, m.error])).toEqual([
    ["<3f1c2a9e@mail.example.com>", "queued", null],
    [null, "error", "gone@example.org: recipient is suppressed"],
  ]);
});
