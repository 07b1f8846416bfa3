package pii

import (
	"slices"
	"testing"
)

// TestScriptForms: a person named in Latin letters is found where the
// text quotes them in an Indian script, by sound; other words are not.
func TestScriptForms(t *testing.T) {
	cases := []struct {
		text, name string
		want       []string
	}{
		{"\"रज्जन ने बांके से वार किया\" (Rajjan struck)", "Rajjan", []string{"रज्जन"}},
		{"\"रज्जन ने बांके से वार किया और छेदी लाल ने लाठी मारी\"", "Chhedi Lal", []string{"छेदी लाल"}},
		{"\"আমার শাশুড়ি দীপালি আমাকে বলেছেন\"", "Dipali", []string{"দীপালি"}},
		{"\"ನನ್ನ ಮಗ ಶಿವಕುಮಾರ್ ಹಣ ಕೊಟ್ಟಾಗ ಇದ್ದರು\"", "N. Shivakumar", []string{"ಶಿವಕುಮಾರ್"}},
		{"'ਬੀਜੀ ਕਹਿੰਦੇ ਨੇ ਕਾਰ ਲਿਆ' (Biji says bring the car)", "Biji", []string{"ਬੀਜੀ"}},
		{"वह घर के बीच में था", "Biji", nil},
		{"पप्पू सिंह आइल", "Pappu Singh", []string{"पप्पू सिंह"}},
		{"वह घर के बीच में था", "Om", nil},
		{"accused No. 1 as ਜਸਵੰਤ ਸਿੰਘ.", "Jaswant Singh @ Jassa", []string{"ਜਸਵੰਤ ਸਿੰਘ"}},
		{"in the Urdu grounds as محمد یاسین بٹ)", "Mohammad Yaseen Bhat", []string{"محمد یاسین بٹ"}},
		{"4. முத்துலட்சுமி, as she signed", "K. Muthulakshmi", []string{"முத்துலட்சுமி"}},
		{"\"আমি হরিপদবাবুকে সই করতে দেখেছি\"", "Haripada", []string{"হরিপদবাবুকে"}},
		{"\"माझे पती ज्ञानेश्वर हे बसमधून उतरून\"", "Dnyaneshwar", []string{"ज्ञानेश्वर"}},
		{"she had never met \"বাপ্পা\"", "Bappa", []string{"বাপ্পা"}},
		{"\"സേവ്യർ സാർ told me\"", "Xavier", []string{"സേവ്യർ"}},
		{"written in Urdu and naming \"مظہر\".", "Mazharuddin", []string{"مظہر"}},
		{"the flat was for \"आमची देवयानी\"", "Devyani", []string{"देवयानी"}},
		{"his grandfather wrote \"കൃഷ്ണൻ നായർ\"", "Krishnan Nair", []string{"കൃഷ്ണൻ നായർ"}},
		{"her name in Telugu as \"గడ్డం అనసూయ\".", "Gaddam Anasuya", []string{"గడ్డం అనసూయ"}},
		{"\"मैंने भंवरलाल को देखा\"", "Bhanwarlal", []string{"भंवरलाल"}},
		{"the register as \"محمد ایان\" and", "Mohd. Ayaan", []string{"محمد ایان"}},
		{"his sister's as \"زویا\".", "Zoya", []string{"زویا"}},
		{"\"सायं का समय था\"", "Zoya", nil},
		{"The father, H. Subba Rao (ಎಚ್. ಸುಬ್ಬರಾವ್), founded it", "H. Subba Rao", []string{"ಸುಬ್ಬರಾವ್"}},
		{"\"ಸುಬ್ಬಯ್ಯ ಬಂದರು\"", "Subba Rao", nil},
	}
	for _, c := range cases {
		got := scriptForms(c.text, scriptWords(c.text), c.name)
		if !slices.Equal(got, c.want) {
			t.Errorf("scriptForms(%q, %q) = %q, want %q", c.text, c.name, got, c.want)
		}
	}
}
