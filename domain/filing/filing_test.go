package filing

import "testing"

func TestRoleOf(t *testing.T) {
	const acc, primary = "0000320193-24-000123", "aapl-20240928.htm"
	cases := map[string]Role{
		"aapl-20240928.htm":           RolePrimary,
		"0000320193-24-000123.txt":    RoleFullSubmission,
		"aapl-20240928_htm.xml":       RoleXBRLInstance,
		"aapl-20240928_cal.xml":       RoleXBRLLinkbase,
		"aapl-20240928_lab.xml":       RoleXBRLLinkbase,
		"aapl-20240928.xsd":           RoleXBRLSchema,
		"aapl-20240928_g1.jpg":        RoleGraphic,
		"ex21.htm":                    RoleExhibit,
		"a10-kexhibit21109282024.htm": RoleExhibit,
		"FilingSummary.xml":           RoleOther,
		"Financial_Report.xlsx":       RoleOther,
	}
	for name, want := range cases {
		if got := RoleOf(name, acc, primary); got != want {
			t.Errorf("RoleOf(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestSECURL(t *testing.T) {
	got := SECURL("0000320193", "0000320193-24-000123", "aapl-20240928.htm")
	if want := "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"; got != want {
		t.Fatalf("SECURL = %s, want %s", got, want)
	}
}
