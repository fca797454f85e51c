package sql

import "minipg/types"

// The POSIX regular expression operators resolve, like PostgreSQL's
// pg_operator entries for them, to the functions behind them (registered
// by the executor with the other string functions).
func init() {
	operatorFuncs["~"] = []string{"textregexeq"}
	operatorFuncs["~*"] = []string{"texticregexeq"}
	operatorFuncs["!~"] = []string{"textregexne"}
	operatorFuncs["!~*"] = []string{"texticregexne"}
}

// regexpSRF binds regexp_matches(text, text [, text]) (text[] per match)
// and regexp_split_to_table(text, text [, text]) (text per field).
func (c *call) regexpSRF() (Expr, error) {
	if err := c.srfAllowed(); err != nil {
		return nil, err
	}
	if len(c.args) != 2 && len(c.args) != 3 {
		return nil, c.undefined()
	}
	for i := range c.args {
		if err := c.coerceArg(i, types.TText); err != nil {
			return nil, err
		}
	}
	t := types.TText
	if c.name == "regexp_matches" {
		t = types.ArrayOf(types.TText)
	}
	return &SRFCall{Name: c.name, Args: c.args, T: t}, nil
}
