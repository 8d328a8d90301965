import { describe, expect, it } from "vitest";
import { installedVersion, packageDirectory } from "../helpers/installed";

// nodemailer on a maintained major (README.md, "overrides"): the service's transport and the copy
// next-auth would load are the same nodemailer 10.
describe("nodemailer", () => {
  it("is on major 10", () => {
    expect(installedVersion("nodemailer").split(".")[0]).toBe("10");
  });

  it("next-auth resolves the same nodemailer (its peer range says 7; overridden)", () => {
    expect(installedVersion("nodemailer", packageDirectory("next-auth"))).toBe(installedVersion("nodemailer"));
  });
});
