// The policy pack's rules fire for the native face's type tokens (`txmail:index:<Kind>`) exactly as
// for the dynamic ones: every rule's suite, run again with the fake resources carrying native tokens
// (harness.ts useFace). The suites are required here, not copied, so a new case covers both faces.
import { nativeTypeToken } from "../../../provider/api/typeTokens";
import { KEY_KINDS, kindOf } from "../../../policy/lib/resources";
import { fakeArgs, useFace } from "./harness";

useFace("native");

it("the fake resources of these suites carry native tokens", () => {
  expect(fakeArgs({ kind: "ApiKey", props: {} }).type).toBe("txmail:index:ApiKey");
  expect(kindOf(nativeTypeToken("SubAccountApiKey"), KEY_KINDS)).toBe("SubAccountApiKey");
  expect(kindOf("txmail:index:Nope", KEY_KINDS)).toBeUndefined();
  expect(kindOf("other:index:ApiKey", KEY_KINDS)).toBeUndefined();
});

for (const suite of [
  "allowAll",
  "broadPrefix",
  "credentialRotation",
  "httpsEndpoints",
  "keyAllowList",
  "keyScopes",
  "maxEntries",
  "unknowns",
  "validEntries",
]) {
  describe(`${suite} with txmail:index tokens`, () => {
    require(`./${suite}.test`);
  });
}
