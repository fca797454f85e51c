--
-- Function lookup errors name the function as called and the argument types
-- without modifiers
--
CREATE TABLE fe (v varchar(5), c char(3), n numeric(6,2), t timestamp(3));
SELECT abs(v) FROM fe;
SELECT lower(n) FROM fe;
SELECT ceiling(v) FROM fe;
SELECT ceiling(1, 2);
SELECT round(t) FROM fe;
SELECT substr(n, 1) FROM fe;
SELECT length(c, 1) FROM fe;
SELECT upper(t) FROM fe;
SELECT abs(c) FROM fe;
DROP TABLE fe;
