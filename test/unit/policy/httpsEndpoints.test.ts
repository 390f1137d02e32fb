// endpoint-https: webhook and route URLs.
import { validateHttpsEndpoint } from "../../../policy/rules/httpsEndpoints";
import { run, UNKNOWN } from "./harness";

const endpoint = (url: unknown, kind = "Webhook", config?: Record<string, unknown>) => ({
  kind,
  name: "events",
  props: { name: "events", url },
  config,
});

describe("endpoint-https", () => {
  it.each(["Webhook", "Route"])("reports an http %s url, suggesting the https one", async (kind) => {
    const [m, ...rest] = await run(validateHttpsEndpoint, endpoint("http://hooks.example.com/txmail", kind));
    expect(rest).toEqual([]);
    expect(m).toContain(`${kind} 'events': url 'http://hooks.example.com/txmail' uses http`);
    expect(m).toContain("use an https:// URL ('https://hooks.example.com/txmail')");
    expect(m).toContain("endpoint-https.allowedHttpHosts");
  });

  it.each([
    ["HTTP://hooks.example.com/", /uses http/],
    ["ftp://hooks.example.com/", /uses ftp/],
    ["ws://hooks.example.com/", /uses ws/],
    ["hooks.example.com/txmail", /is not an absolute URL/],
    ["", /is not an absolute URL/],
    [42, /number 42 is not a string/],
  ])("reports %j", async (url, why) => {
    const [m] = await run(validateHttpsEndpoint, endpoint(url));
    expect(m).toContain("Webhook 'events': url");
    expect(m).toMatch(why);
    expect(m).toMatch(/https:\/\//);
  });

  it.each(["https://hooks.example.com/txmail", "HTTPS://hooks.example.com", "https://[2001:db8::1]:8443/x"])(
    "accepts %s",
    async (url) => {
      expect(await run(validateHttpsEndpoint, endpoint(url))).toEqual([]);
    },
  );

  it("allows http for configured hosts only", async () => {
    const config = { allowedHttpHosts: ["localhost"] };
    expect(await run(validateHttpsEndpoint, endpoint("http://localhost:8080/hook", "Route", config))).toEqual([]);
    expect(await run(validateHttpsEndpoint, endpoint("http://hooks.example.com/", "Route", config))).toHaveLength(1);
    expect(await run(validateHttpsEndpoint, endpoint("ftp://localhost/", "Route", config))).toHaveLength(1);
  });

  it("reports nothing for an unknown or absent url, or for other resources", async () => {
    expect(await run(validateHttpsEndpoint, endpoint(UNKNOWN))).toEqual([]);
    expect(await run(validateHttpsEndpoint, endpoint(undefined))).toEqual([]);
    expect(await run(validateHttpsEndpoint, { kind: "ApiKey", props: { url: "http://x.example.com" } })).toEqual([]);
  });
});
