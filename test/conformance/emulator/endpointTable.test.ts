// The emulator serves exactly the service's endpoint table (provider/api/endpoints.ts): no endpoint
// the table lacks, none of the table's missing. Compared on the routes the emulator registered.
import { ENDPOINT_LIST, endpointKey } from "../../../provider/api/endpoints";
import { endpoints } from "../../../emulator/handlers";
import { endpointTable } from "../../../emulator/pipeline/endpoint";

describe("the emulator's routes and the endpoint table", () => {
  const served = endpointTable(endpoints).templates().map(endpointKey).sort();
  const table = ENDPOINT_LIST.map(endpointKey).sort();

  it("serves no endpoint the table lacks", () => {
    expect(served.filter((k) => !table.includes(k))).toEqual([]);
  });

  it("serves every endpoint of the table", () => {
    expect(table.filter((k) => !served.includes(k))).toEqual([]);
  });

  it("registers each endpoint once", () => {
    expect(served).toEqual([...new Set(served)]);
  });
});
