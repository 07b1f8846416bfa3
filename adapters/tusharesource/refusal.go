package tusharesource

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/ports"
)

// The codes the API answers a refusal with that only an operator can lift.
const (
	// codeToken: the token is not one Tushare knows ("您的token不对，请确认。").
	codeToken = 40101
	// codeLimited: the token may not call the API, or has spent its calls
	// for the minute, hour or day ("抱歉，您没有接口访问权限…",
	// "抱歉，您每分钟最多访问该接口500次…").
	codeLimited = 40203
)

// rateWords mark a refusal for calls spent (每分钟/每小时/每天最多访问).
const rateWords = "最多访问"

// stopWords mark, in a refusal under another code, a token that lacks the
// points or the permission, or is wrong.
var stopWords = []string{rateWords, "权限", "积分", "token"}

// refusal is the error an answer with a code other than 0 stands for.
// Retrying does not lift a refusal for the token, its permission, its
// points or its rate: the run stops (ports.ErrSourceStopped) naming what
// to do. Any other refusal (a parameter the API rejects) is a failed
// fetch: nothing is stored and the next run asks again.
func refusal(api string, a Answer) error {
	what := fmt.Sprintf("tushare %s answered code %d: %s", api, a.Code, a.Msg)
	if !stops(a) {
		return fmt.Errorf("%w: %s", ports.ErrSourceFailed, what)
	}
	remedy := "check the points and permissions of the token in QUARRY_TUSHARE_TOKEN (https://tushare.pro/document/1?doc_id=108)"
	switch {
	case a.Code == codeToken:
		remedy = "set QUARRY_TUSHARE_TOKEN to the token shown in the Tushare account's user centre"
	case strings.Contains(a.Msg, rateWords):
		remedy = "the account's limit is below the rate this client keeps, or another client spends it: " +
			"lower QUARRY_TUSHARE_PER_MINUTE to the account's limit, then run the sync again"
	}
	return fmt.Errorf("%w: %s; %s", ports.ErrSourceStopped, what, remedy)
}

func stops(a Answer) bool {
	if a.Code == codeToken || a.Code == codeLimited {
		return true
	}
	msg := strings.ToLower(a.Msg)
	for _, w := range stopWords {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
