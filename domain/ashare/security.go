package ashare

import "time"

// Security is one mainland A-share listing. Dates are ISO 8601 calendar dates;
// DelistingDate is empty while the listing trades.
type Security struct {
	Code        string `json:"code"`
	Exchange    string `json:"exchange"`
	Board       string `json:"board"`
	CompanyName string `json:"company_name"`
	// EnglishName is the company's English name where the list ingested
	// gives one (Tushare's enname, the SZSE's 英文名称, the SSE's
	// 公司英文全称); empty otherwise.
	EnglishName   string `json:"english_name,omitempty"`
	ListingDate   string `json:"listing_date"`
	DelistingDate string `json:"delisting_date,omitempty"`
	Listed        bool   `json:"listed"`
	// RetrievedAt is when the list the listing was read from was retrieved
	// from its source (a file's modification time: when it was
	// downloaded), in UTC to the millisecond; zero for a listing stored
	// before listings carried it.
	RetrievedAt time.Time `json:"retrieved_at"`
}
