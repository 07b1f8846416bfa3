package pii_test

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/domain/pii"
)

// TestLitigantsByRule: each rule finds the persons it is for, and leaves
// counsel and judges alone. The sentences are made up in the style of
// Indian judgments; the people in them are invented.
func TestLitigantsByRule(t *testing.T) {
	cases := []struct {
		name, text string
		judges     []string
		want       []string
	}{
		{"Shri", "The land was sold by Shri Ramesh Chand to the State.", nil, []string{"Ramesh Chand"}},
		{"Smt.", "Smt. Kamla Devi deposed that", nil, []string{"Kamla Devi"}},
		{"Kumari", "the statement of Kumari Pooja Rani was recorded", nil, []string{"Pooja Rani"}},
		{"Mr. and Mrs.", "Mr. Anil Mehta and Mrs. Sunita Mehta are the owners.", nil, []string{"Anil Mehta", "Sunita Mehta"}},
		{"Ms. and Dr.", "Ms. Neha Jain was examined by Dr. R.K. Bansal.", nil, []string{"Neha Jain", "R.K. Bansal"}},
		{"S/o, and a place alone", "Ram Lal S/o Shyam Lal, resident of Rohtak", nil, []string{"Ram Lal", "Rohtak", "Shyam Lal"}},
		{"a given name alone", "I told Bindu, the trainee nurse, to call the anaesthetist.", nil, []string{"Bindu"}},
		{"no abbreviation alone", "Crl. Appeal No. 12 of 2020 and Exh. P-4 of the Govt.", nil, nil},
		{"kin in Hindi", "her nanad Pinky taunted her", nil, []string{"Pinky"}},
		{"through in prose is no counsel", "the record was proved through Sh. Vikram Singh Rawat, UDC of the school", nil, []string{"Vikram Singh Rawat"}},
		{"a pet name in quotes", `the girl (referred to by her family as "Pinky"), aged 14 years`, nil, []string{"Pinky"}},
		{"Hindi: my name is", "मेरा नाम सलमा है।", nil, []string{"सलमा"}},
		{"initials after an honorific", "The family physician Dr. M.R.S. (PW-3) supported him.", nil, []string{"M.R.S."}},
		{"a name called out", "He was calling another one 'Pappu'.", nil, []string{"Pappu"}},
		{"an honorific that is the name", "The appellant's sister, Selvi, was not examined.", nil, []string{"Selvi"}},
		{"what a child calls a grandparent", `the child calls the grandmother "ஆத்தா" at home`, nil, []string{"ஆத்தா"}},
		{"D/o and W/o", "Geeta D/o Hari Singh W/o Mohan Lal", nil, []string{"Geeta", "Hari Singh", "Mohan Lal"}},
		{"son of, late", "Vijay Kumar, son of late Om Parkash, filed", nil, []string{"Om Parkash", "Vijay Kumar"}},
		{"daughter of, wife of", "Anita, daughter of Suresh Pal and wife of Rakesh Pal", nil, []string{"Anita", "Rakesh Pal", "Suresh Pal"}},
		{"petitioner", "The petitioner Harbans Kaur submits", nil, []string{"Harbans Kaur"}},
		{"second respondent", "The second respondent Bhola Nath has made an affidavit", nil, []string{"Bhola Nath"}},
		{"appellant No.", "appellant No. 2 Jagdish Prasad died", nil, []string{"Jagdish Prasad"}},
		{"accused, alias", "the accused Rajbir @ Raju was arrested", nil, []string{"Rajbir", "Raju"}},
		{"a.k.a. and an English nickname", "with Rakesh Kumar a.k.a. Sunny and Mohit Verma", nil, []string{"Mohit Verma", "Rakesh Kumar", "Sunny"}},
		{"an alias that is no name's word", "Rakesh Kumar alias the driver was absent", nil, []string{"Rakesh Kumar"}},
		{"complainant", "the complainant Sushila Bai lodged the FIR", nil, []string{"Sushila Bai"}},
		{"plaintiff", "the plaintiff, Mohd. Yusuf, sued", nil, []string{"Mohd. Yusuf"}},
		{"defendant Nos., list in parentheses", "defendant Nos.2 to 4 (Arjun Dev, Kiran Dev and Mahesh Dev)", nil, []string{"Arjun Dev", "Kiran Dev", "Mahesh Dev"}},
		{"respondents, list with honorifics", "respondents (Shri Gopal Das & Smt. Lata Das)", nil, []string{"Gopal Das", "Lata Das"}},
		{"partners, namely", "a firm whose partners, namely, Sanjay Arora and Vinod Arora, signed", nil, []string{"Sanjay Arora", "Vinod Arora"}},
		{"partner of", "Deepak Malhotra, partner of the assessee firm, appeared", nil, []string{"Deepak Malhotra"}},
		{"proprietor of", "Harish Gupta, the sole proprietor of M/s. Gupta Traders", nil, []string{"Harish Gupta"}},
		{"proprietor", "the proprietor Mr. Kuldeep Singh", nil, []string{"Kuldeep Singh"}},
		{"counsel after the name", "Mr. Arvind Rao, learned counsel for the appellant, and Ms. Rhea Sen, Advocate", nil, nil},
		{"counsel listed together", "Through: Mr. Piyush Jain and Mr. Nikhil\nKumar Rao, Advocates with Mr.\nVedansh Lal, GP for R-1.", nil, nil},
		{"counsel, then the lone surname", "Mr. Darius Mehta, Senior Advocate for the Appellant. Mr. Mehta argued", nil, nil},
		{"counsel without an honorific", "Vimal Arora for the respondents.\nMr.Arora waives service.", nil, nil},
		{"counsel under a cause title", "ABC Ltd. .. Petitioner\nMr.R.S. Apte with Mr.N.R. Bubna for the Petitioner.\nHeard Mr.Apte.", nil, nil},
		{"judge", "Hon'ble Mr. Justice Ravi Kumar; (DR.D.Y.CHANDRACHUD, J.)", nil, nil},
		{"judge from the metadata", "Shri A.K. Verma presiding", []string{"A.K. Verma"}, nil},
		{"party in person", "Mr. Tarun Bose, the petitioner in person, appears", nil, []string{"Tarun Bose"}},
		{"a company is no person", "The respondent M/s. Andhra Sugars Ltd. and the petitioner Jet Enterprises Private Limited", nil, nil},
		{"a society is no person", "Respondent No.2 Navbharat Society and the respondent-Municipal Corporation", nil, nil},
		{"a cited party's word is no lone name", "a hardware shop, \"Verma Hardware\", of the deceased. Applying Sarla Verma v. Delhi Transport Corporation, (2009) 6 SCC 121", nil, nil},
		{"a cited party's alias", "relied on State of Maharashtra v. Bandu @ Daulat, (2018) 11 SCC 163, which", nil, nil},
		{"an abbreviated given name is no name alone", "see Mohd. Muslim @ Hussain v. State (NCT of Delhi), 2023 SCC OnLine SC 352.", nil, nil},
		{"a textbook's author", "We also note the observation in Mulla's Principles of Hindu Law that a gift", nil, nil},
		{"tokens are no names", "the plaintiff (PTY_SW7LB3GSMGIYSCGP) and the appellants (PTY_MX5TZWECRG3YQNOX and others)", nil, nil},
		{"an authority's acronym, a PAN", "Respondent No.1 BMC issued a notice to the petitioner PAN ABCPK1234Z", nil, nil},
		{"for the respondent", "counsel for the respondent Shri Mukul Rohtagi, Senior Advocate", nil, nil},
		{"a relation in the plural", "in the names of the minors Kavya and Om until they attain majority", nil, []string{"Kavya", "Om"}},
		{"a name in lower case after kin", "the applicant's elder brother sonu rathore has threatened the witnesses", nil, []string{"sonu rathore"}},
		{"a name in lower case between commas", "The Branch Manager, girish hegde, who sanctioned the loan", nil, []string{"girish hegde"}},
		{"lower-case English words after kin are no name", "her brother was present and the mother said so", nil, nil},
		{"an English word named between commas and who", "His employee, Sunny, who signed the deed, was not examined.", nil, []string{"Sunny"}},
		{"counsel after a label", "For Respondents : Mrs. J. Anitha Kumari\nCounsel for Applicant :- Pranav Mishra, Mohd. Asif Khan\nRevenue by : Sh. Ved Prakash, Sr. DR", nil, nil},
		{"counsel under a label alone", "Appearance:\nMR B K SOPARIWALA(6851) for the Appellant(s) No. 1\nMRS MEERA N BHATT for the Opponent(s) No. 1\n\nThe appeal", nil, nil},
		{"counsel by their office", "Mr. Gurnoor Singh Dhillon, DAG, Punjab, and Mr. Y. V. Rao, Sr. Advocate; (BY SHRI ALOK DUBEY - ADVOCATE)", nil, nil},
		{"counsel named after counsel for", "Learned counsel for the appellant, Mr. Aditya Kumar Saxena, submitted", nil, nil},
		{"an officer with counsel is no counsel", "Through: Mr. Hemant Rana, APP for the State with\n   SI Pradeep Kadian, P.S. Narela.", nil, []string{"SI Pradeep Kadian"}},
		{"a bench by its words", "BEFORE SHRI ANIL KHARE, AM AND SMT. LEENA RAO, JM\n\nPresiding Officer: Smt. Rekha Joshi Negi\n\nRayees Ahmad Lone-J\n\nthe decree of Sri P.C.Mohanty, Subordinate Judge, dated", nil, nil},
		{"a judge's given name alone", "(Indu Malhotra, J.) and authored by one of us (Indu\n\n16 (2018) SCC OnLine Ker 4913", []string{"Indu Malhotra"}, nil},
		{"a judge listed with a title and spaced initials", "Sd/- A.K.VENUGOPAL NAMBIAR, JUDGE", []string{"Justice A. K. Venugopal Nambiar"}, nil},
		{"a cited case named again alone", "relied upon Baldev Raj v. State of M.P., (2017) 1 SCC 101. In Baldev Raj this Court cautioned", nil, nil},
		{"a cited case's alias and honorific", "see Mohd. Salim @ Hussain v. State (NCT of Delhi), 2023 SCC OnLine SC 352, and Rangappa v. Sri Mohan, (2010) 11 SCC 441", nil, nil},
		{"a company with (India) in its name", "Needle Industries Newey (India) Holding Ltd. v. Union of India", nil, nil},
		{"counsel by 'learned AR', 'his counsel', 'SSC', 'a/w'", "The learned AR, Shri Jatin Sanghvi, submits; his counsel Mr. Sandeep Mehra agreed. Mr. Harpreet Gill, SSC for DGGI. Mr. Cyrus Engineer a/w Ms. Ketaki Joshi for the Petitioner.", nil, nil},
		{"counsel in a cause title's parentheses", "STATE OF KARNATAKA ...RESPONDENTS\n(BY SMT. PRIYA RAO, AGA FOR R1; SRI. K. N. MANJAPPA, ADVOCATE FOR R3)", nil, nil},
		{"a judge's words and a given name's abbreviation", "CORAM: THE HON'BLE SRI JUSTICE CH. SURYA PRASAD\n\nSd/- SURYA PRASAD\n\nIRFAN RASOOL", []string{"Ch. Surya Prasad", "Irfan Rasool Wani"}, nil},
		{"a case cited without a citation after 'relied on' and 'In'", "He relied on Ravinder Kaur v. Mohan Lal Bedi. In Gulshan Arora v. ITO this Court held so; Ravinder Kaur was followed.", nil, nil},
		{"a cited party's name past a word that ends a name", "See Lalita Kumari Sisodia v. Bhagwat Singh Sisodia, 2014 (3) WLN 220.", nil, nil},
		{"an acronym's plural is no name", "the assessees as well as the Assessing Officers (AOs), and the PWs", nil, nil},
		{"a name keeps its case over a line", "Digitally signed by\nSUNIL VERMA\n   Cargo Handling at the port", nil, []string{"SUNIL VERMA"}},
		{"counsel with a pen name in quotes", "Mr. Rajeev Gaur 'Naseem', learned counsel for the State, supported it.", nil, nil},
		{"a tribunal's members by their label", "Chairman : Shri Awadhesh Kumar Sinha, Retd. District Judge\nMembers  : Smt. Kiran Bala Prasad and Dr. Shyam Narayan Choudhary\n\nSd/- Member\n(Kiran Bala Prasad)", nil, nil},
		{"a cited firm named for a person", "the Bombay High Court in Pr. CIT v. Mohommad Haji Adam & Co., (2019) 103 taxmann.com 459 (Bom). Respectfully following Mohommad Haji Adam, we restrict it.", nil, nil},
		{"a signature's mark", "The bail is granted.\n\nOrder Date :- 01.02.2023\nMukesh/-", nil, []string{"Mukesh"}},
		{"a stenographer's marks under a signature", "The appeal is allowed.\n(ANIL MEHRA)\nJUDGE\n17.02.2021 kavi\nWhether reportable: No\n\nOrder passed.\nMember (J)\n/pq/\n\nSd/-\nJUDGE\nTRS/CT:ANB\n\nSINGH, J\nJANUARY 30, 2024 / rk", []string{"Anil Mehra"}, []string{"TRS", "kavi", "pq", "rk"}},
		{"a mark after a date alone", "followed.\n10.10.2024\ngns\n", nil, []string{"gns"}},
		{"no mark without a signature or a date", "the parties agree.\nYes\nxq\n", nil, nil},
		{"a trade name in quotes", `the respondent, trading as "Kohli Fruit Company", bought boxes`, nil, []string{"Kohli Fruit Company"}},
		{"a proprietorship through its proprietor", "a complaint by M/s Shree Ganesh Enterprises through its proprietor Sh. Naveen Goel", nil, []string{"Naveen Goel", "Shree Ganesh Enterprises"}},
		{"a company's secretary signs", "the resolution signed by Ms. Tanvi Mathur, Company Secretary, was filed", nil, []string{"Tanvi Mathur"}},
		{"an advocate the court appoints its commissioner", "The Commissioner of Partition, Sri Ajoy Kumar Sen, Advocate, shall divide the lands.", nil, []string{"Ajoy Kumar Sen"}},
		{"counsel with Adv., a retired judge", "The complainants appeared in person with Adv. Tushar Kale. Mr. Justice (Retd.) Rajiv Sahai Kohli is appointed arbitrator.", nil, nil},
		{"a cited party before a law report", "The law is settled in Tulsiram Patel, (1985) 3 SCC 398 and Ram Avtar, (2014) SCC OnLine SC 1761.", nil, nil},
		{"a cited party past and", "see Shankar Finance and Investments v. State of Andhra Pradesh, (2008) 8 SCC 536.", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pii.Litigants(c.text, c.judges)
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Fatalf("Litigants(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestAddressesByShape: an address found by its own shape, with nothing
// before it that introduces one, is taken whole; prose is not.
func TestAddressesByShape(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"a house number before a place", "the notice went by courier to 14, Lake Place, Kolkata, which they had left", "14, Lake Place, Kolkata"},
		{"a floor before a building", "from the office of M/s. R. K. Traders, 3rd Floor, Shanti Complex, Ring Road, Surat, using its computer", "3rd Floor, Shanti Complex, Ring Road, Surat"},
		{"a floor in prose", "he ran up to the 3rd floor, where the others were", ""},
		{"r/at", "SHIVAPPA HOSAMANI, AGED ABOUT 44 YEARS, R/AT BELAVATAGI VILLAGE, NAVALGUND TALUK, DHARWAD DISTRICT.\n... RESPONDENT", "BELAVATAGI VILLAGE, NAVALGUND TALUK, DHARWAD DISTRICT"},
		{"an address ends at a line that names counsel", "R/o At Post Kondhali, Tah. Katol, Dist. Nagpur\nShri R. M. Bhangde, Advocate for the appellant.", "At Post Kondhali, Tah. Katol, Dist. Nagpur"},
		{"an address before a parenthesis", "resident of House No. 2217, Sector 44-C, Chandigarh (PAN: B F K P S 3 3 8 1 R)", "House No. 2217, Sector 44-C, Chandigarh"},
	}
	for _, c := range cases {
		var got []string
		for _, a := range pii.FindPeople(c.text, nil, nil).Addresses {
			got = append(got, a.Text)
		}
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("%s: addresses %q, want %q", c.name, got, c.want)
		}
	}
}

// TestGivenNamesLeaveCitedWords: a word of a person's name is tokenized
// alone as a given name, unless it is a word of a cited party's name or an
// abbreviated given name.
func TestGivenNamesLeaveCitedWords(t *testing.T) {
	text := "her father, Shri Mangal Singh Baiga, and Mohd. Irfan Ansari deposed. He relies on Jarnail Singh v. State of Haryana, (2013) 7 SCC 263."
	var got []string
	for _, p := range pii.FindPeople(text, nil, nil).Persons {
		got = append(got, p.Name)
	}
	for _, want := range []string{"Mangal Singh Baiga", "Mangal", "Irfan"} {
		if !slices.Contains(got, want) {
			t.Errorf("persons %q lack %q", got, want)
		}
	}
	for _, not := range []string{"Singh", "Mohd", "Jarnail Singh"} {
		if slices.Contains(got, not) {
			t.Errorf("persons %q hold %q", got, not)
		}
	}
}

// TestCitedPastACompanysAbbreviations: a case cited with its citation
// after "Co. Ltd." is a cited case, so a word of its party's name is no
// given name alone.
func TestCitedPastACompanysAbbreviations(t *testing.T) {
	text := "the wife, Smt. Kuldeep Kaur Sandhu, was operated. See also Satwant Kaur Sandhu v. New India Assurance Co. Ltd., (2009) 8 SCC 316."
	var got []string
	for _, p := range pii.FindPeople(text, nil, nil).Persons {
		got = append(got, p.Name)
	}
	if !slices.Contains(got, "Kuldeep") || slices.Contains(got, "Kaur") || slices.Contains(got, "Satwant Kaur Sandhu") {
		t.Errorf("persons %q, want Kuldeep and neither Kaur nor the cited party", got)
	}
}

// TestFormsLeaveTheBench: a party's initialled form that is part of a
// listed judge's name is no form of the party's, so the bench stays in
// clear; without that judge it is one.
func TestFormsLeaveTheBench(t *testing.T) {
	text := "2. Sri Nagen Baruah, son of late Sri Haricharan Baruah\n\nPRESENT\nTHE HON'BLE MR. JUSTICE D.N. BARUAH HAZARIKA"
	forms := func(judges []string) []string {
		for _, p := range pii.FindPeople(text, judges, nil).Persons {
			if p.Name == "Nagen Baruah" {
				return p.Forms
			}
		}
		t.Fatalf("no person Nagen Baruah in %q", text)
		return nil
	}
	if got := forms([]string{"D. N. Baruah Hazarika"}); slices.Contains(got, "N. Baruah") || slices.Contains(got, "N.Baruah") || !slices.Contains(got, "Baruah Nagen") {
		t.Errorf("with the judge listed, forms %q", got)
	}
	if got := forms(nil); !slices.Contains(got, "N. Baruah") {
		t.Errorf("with no judge listed, forms %q lack N. Baruah", got)
	}
}
