package usecase

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/domain/ashare"
)

// RefuseCode is the ErrValidation of an A-share code raw that err refused.
// When raw stands for one exchange-qualified code (ashare.Meant: a vendor
// form such as 600519.SH, or digits only one exchange lists), the refusal
// is a SuggestionError naming it, and its message asks "did you mean" it.
func RefuseCode(raw string, err error) error {
	err = fmt.Errorf("%w: %w", ErrValidation, err)
	meant, ok := ashare.Meant(raw)
	if !ok {
		return err
	}
	if !strings.Contains(err.Error(), "did you mean") {
		err = fmt.Errorf("%w; did you mean %s?", err, meant)
	}
	return &SuggestionError{Err: err, Meant: meant.String()}
}
