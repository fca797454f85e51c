--
-- pageinspect's functions that return arrays: heap_page_item_attrs,
-- tuple_data_split (raw and detoasted, and its errors on damaged input)
-- and heap_tuple_infomask_flags, over a fixed table; pg_extension's
-- extconfig and extcondition
--
CREATE EXTENSION pageinspect;
CREATE TABLE pi_t (a int4, b text, c int8, d int2, e text, f bool);
INSERT INTO pi_t VALUES (1, 'one', 10, 2, NULL, true), (2, NULL, NULL, 3, 'two-two', false), (3, repeat('x', 200), 30, NULL, '', NULL);
SELECT lp, lp_off, lp_flags, lp_len, t_ctid, t_infomask2, t_hoff, t_bits, t_oid, t_attrs FROM heap_page_item_attrs(get_raw_page('pi_t', 0), 'pi_t'::regclass);
SELECT lp, t_attrs FROM heap_page_item_attrs(get_raw_page('pi_t', 0), 'pi_t'::regclass, true);
SELECT lp, tuple_data_split('pi_t'::regclass, t_data, t_infomask, t_infomask2, t_bits, true) FROM heap_page_items(get_raw_page('pi_t', 0));
SELECT lp, tuple_data_split('pi_t'::regclass, t_data, t_infomask, t_infomask2, t_bits) FROM heap_page_items(get_raw_page('pi_t', 0));
SELECT lp, tuple_data_split('pi_t'::regclass, t_data, t_infomask, t_infomask2, t_bits, false) FROM heap_page_items(get_raw_page('pi_t', 0));
SELECT tuple_data_split('pi_t'::regclass, NULL, 0, 0, NULL);
SELECT tuple_data_split('pi_t'::regclass, '\x01000000'::bytea, 0, 1, NULL);
SELECT tuple_data_split('pi_t'::regclass, '\x01000000'::bytea, 0, 7, NULL);
SELECT tuple_data_split('pi_t'::regclass, '\x0100000000'::bytea, 0, 1, NULL);
SELECT tuple_data_split('pi_t'::regclass, '\x010000'::bytea, 0, 1, NULL);
SELECT tuple_data_split('pi_t'::regclass, '\x01000000'::bytea, 1, 1, NULL);
SELECT tuple_data_split('pi_t'::regclass, '\x01000000'::bytea, 1, 1, '1000000');
SELECT tuple_data_split('pi_t'::regclass, '\x01000000'::bytea, 1, 1, '10000002');
SELECT tuple_data_split('pi_t'::regclass, '\x01000000'::bytea, 1, 1, '10000000');
SELECT tuple_data_split('pi_t'::regclass, '\x01000000'::bytea, 0, 1, '10000000');
SELECT tuple_data_split('pi_t'::regclass, '\x0100000009'::bytea, 0, 2, NULL);
SELECT tuple_data_split('pi_t'::regclass, '\x0100000001'::bytea, 0, 2, NULL);
SELECT * FROM heap_tuple_infomask_flags(0, 0);
SELECT * FROM heap_tuple_infomask_flags(0, 6);
SELECT * FROM heap_tuple_infomask_flags(2305, 6);
SELECT * FROM heap_tuple_infomask_flags(80, 0);
SELECT * FROM heap_tuple_infomask_flags(768, 49152);
SELECT * FROM heap_tuple_infomask_flags(65535, 65535);
SELECT * FROM heap_tuple_infomask_flags(-1, -1);
SELECT * FROM heap_tuple_infomask_flags(65536 + 2, 0);
SELECT raw_flags, combined_flags FROM heap_tuple_infomask_flags(NULL, 0);
SELECT lp, raw_flags, combined_flags FROM heap_page_items(get_raw_page('pi_t', 0)), LATERAL heap_tuple_infomask_flags(t_infomask % 256, t_infomask2);
SELECT lp, f.* FROM heap_page_items(get_raw_page('pi_t', 0)) h, heap_tuple_infomask_flags(h.t_infomask % 16, h.t_infomask2) f;
UPDATE pi_t SET d = 9 WHERE a = 1;
SELECT lp, t_ctid, t_attrs FROM heap_page_item_attrs(get_raw_page('pi_t', 0), 'pi_t');
SELECT extname, extconfig, extcondition FROM pg_extension WHERE extname = 'pageinspect';
DROP TABLE pi_t;
