package edgarsource_test

import (
	"os"
	"testing"

	"github.com/quarrydata/quarry/adapters/edgarsource"
)

const (
	msftCIK = 789019
	msftAcc = "0000950170-25-100235"
)

func TestCheckFolderIndexReadsTheListedSizes(t *testing.T) {
	body, err := os.ReadFile("testdata/index.789019-000095017025100235.json")
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := edgarsource.CheckFolderIndex(body, msftCIK, msftAcc)
	if err != nil {
		t.Fatal(err)
	}
	if sizes["msft-20250630.htm"] != -1 || sizes["FilingSummary.xml"] != 67405 {
		t.Fatalf("sizes %v", sizes)
	}
	if _, err := edgarsource.CheckFolderIndex(body, msftCIK, "0000950170-25-100236"); err == nil {
		t.Fatal("index.json of another filing taken")
	}
	if _, err := edgarsource.CheckFolderIndex(body[:len(body)/2], msftCIK, msftAcc); err == nil {
		t.Fatal("half an index.json taken")
	}
}

func TestCheckSubmissionsReadsThePrimaryDocuments(t *testing.T) {
	body, err := os.ReadFile("testdata/submissions.CIK0000789019.json")
	if err != nil {
		t.Fatal(err)
	}
	subs, err := edgarsource.CheckSubmissions(body, msftCIK)
	if err != nil || subs.Primary[msftAcc] != "msft-20250630.htm" {
		t.Fatalf("primary documents %v, %v", subs, err)
	}
	if _, err := edgarsource.CheckSubmissions(body, 320193); err == nil {
		t.Fatal("another filer's submissions taken")
	}
}

// FuzzFolderChecks feeds the checks of a filing folder's index.json and a
// submissions JSON: they never panic, and what they take is whole JSON.
func FuzzFolderChecks(f *testing.F) {
	for _, name := range []string{"testdata/index.789019-000095017025100235.json", "testdata/submissions.CIK0000789019.json"} {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if sizes, err := edgarsource.CheckFolderIndex(body, msftCIK, msftAcc); err == nil && len(sizes) == 0 {
			t.Fatal("an index.json listing no file taken")
		}
		_, _ = edgarsource.CheckSubmissions(body, msftCIK)
		_, _ = edgarsource.CheckSubmissionsPage(body)
	})
}
