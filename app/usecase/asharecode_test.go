package usecase_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/ashare"
)

// A refused code is ErrValidation; one that stands for a single qualified
// code is a SuggestionError naming it, asked "did you mean" once.
func TestRefuseCodeNamesTheCodeMeant(t *testing.T) {
	for raw, meant := range map[string]string{
		"600519": "SSE.600519", "600519.SZ": "SSE.600519", "SZSE.600519": "SSE.600519", "sh.600519": "SSE.600519",
		"SSE.AAPL": "", "900901": "", "12345": "",
	} {
		_, parseErr := ashare.ParseAlias(raw)
		if parseErr == nil {
			_, parseErr = ashare.ParseCode(raw)
		}
		err := usecase.RefuseCode(raw, parseErr)
		var sug *usecase.SuggestionError
		found := errors.As(err, &sug)
		if !errors.Is(err, usecase.ErrValidation) || found != (meant != "") || (found && sug.Meant != meant) {
			t.Errorf("RefuseCode(%q) = %v (suggestion %v)", raw, err, sug)
		}
		if n := strings.Count(err.Error(), "did you mean"); found && n != 1 {
			t.Errorf("RefuseCode(%q) asks %d times: %v", raw, n, err)
		}
	}
}
