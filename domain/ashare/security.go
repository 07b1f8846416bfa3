package ashare

// Security is one mainland A-share listing. Dates are ISO 8601 calendar dates;
// DelistingDate is empty while the listing trades.
type Security struct {
	Code          string `json:"code"`
	Exchange      string `json:"exchange"`
	Board         string `json:"board"`
	CompanyName   string `json:"company_name"`
	ListingDate   string `json:"listing_date"`
	DelistingDate string `json:"delisting_date,omitempty"`
	Listed        bool   `json:"listed"`
}
