/* test_strict.c: the strict parser (libcoop/src/strict.c) that reads every program option and
 * every environment variable: whole numbers, positive numbers and names, each failure a message
 * naming the option and the accepted range; and the public parsers built on it
 * (coop_take_parse, coop_channel_parse). No OpenCL here. */
#include "testutil.h"

#include "strict.h"

#include <stdint.h>

/* Parses `text` as a whole number in [min, max] and asserts the outcome: the value, or the exact
 * message. */
static void assert_unsigned(const char *text, uint64_t min, uint64_t max, int ok, uint64_t expected,
                            const char *message)
{
    char why[COOP_PARSE_MESSAGE_BYTES] = "untouched";
    uint64_t value = 12345;
    int rc = coop_parse_unsigned("--count", text, min, max, &value, why, sizeof why);
    if (ok) {
        ck_assert_msg(rc == 0, "'%s' was refused: %s", text, why);
        ck_assert_uint_eq(value, expected);
    } else {
        ck_assert_msg(rc == -1, "'%s' was accepted as %llu", text, (unsigned long long)value);
        ck_assert_str_eq(why, message);
        ck_assert_uint_eq(value, 12345);
    }
}

START_TEST(whole_numbers)
{
    assert_unsigned("0", 0, 10, 1, 0, NULL);
    assert_unsigned("10", 0, 10, 1, 10, NULL);
    assert_unsigned("0042", 0, 100, 1, 42, NULL);
    assert_unsigned("18446744073709551615", 0, UINT64_MAX, 1, UINT64_MAX, NULL);
    assert_unsigned("4294967295", 1, UINT32_MAX, 1, UINT32_MAX, NULL);
}
END_TEST

START_TEST(whole_number_errors_name_the_option_and_range)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"", "--count: '' is empty; expected a whole number from 1 to 4096"},
        {"abc", "--count: 'abc' is not a whole number; expected a whole number from 1 to 4096"},
        {"5abc", "--count: '5abc' is not a whole number; expected a whole number from 1 to 4096"},
        {"5 ", "--count: '5 ' is not a whole number; expected a whole number from 1 to 4096"},
        {" 5", "--count: ' 5' is not a whole number; expected a whole number from 1 to 4096"},
        {"+5", "--count: '+5' is not a whole number; expected a whole number from 1 to 4096"},
        {"0x10", "--count: '0x10' is not a whole number; expected a whole number from 1 to 4096"},
        {"1.5", "--count: '1.5' is not a whole number; expected a whole number from 1 to 4096"},
        {"-1", "--count: '-1' is negative; expected a whole number from 1 to 4096"},
        {"-0", "--count: '-0' is negative; expected a whole number from 1 to 4096"},
        {"0", "--count: '0' is out of range; expected a whole number from 1 to 4096"},
        {"4097", "--count: '4097' is out of range; expected a whole number from 1 to 4096"},
        /* 2^32 + 1: atoi and a 32-bit cast made this 1 */
        {"4294967297", "--count: '4294967297' is out of range; expected a whole number from 1 to 4096"},
        /* beyond 64 bits */
        {"18446744073709551616", "--count: '18446744073709551616' is out of range; expected a whole number from 1 to "
                                 "4096"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_unsigned(cases[i].text, 1, 4096, 0, 0, cases[i].message);
    char why[COOP_PARSE_MESSAGE_BYTES];
    uint64_t value = 0;
    ck_assert_int_eq(coop_parse_unsigned("N", NULL, 0, 1, &value, why, sizeof why), -1);
    ck_assert_str_eq(why, "N: '' is empty; expected a whole number from 0 to 1");
    /* no room for the message: still refused */
    ck_assert_int_eq(coop_parse_unsigned("N", "x", 0, 1, &value, NULL, 0), -1);
}
END_TEST

static void assert_positive(const char *text, int ok, double expected, const char *message)
{
    char why[COOP_PARSE_MESSAGE_BYTES] = "untouched";
    double value = -7.0;
    int rc = coop_parse_positive("COOP_TIMEOUT_S", text, 1e6, &value, why, sizeof why);
    if (ok) {
        ck_assert_msg(rc == 0, "'%s' was refused: %s", text, why);
        ck_assert_double_eq(value, expected);
    } else {
        ck_assert_msg(rc == -1, "'%s' was accepted as %g", text, value);
        ck_assert_str_eq(why, message);
        ck_assert_double_eq(value, -7.0);
    }
}

START_TEST(positive_numbers)
{
    assert_positive("1", 1, 1.0, NULL);
    assert_positive("1.5", 1, 1.5, NULL);
    assert_positive(".5", 1, 0.5, NULL);
    assert_positive("5.", 1, 5.0, NULL);
    assert_positive("2e3", 1, 2000.0, NULL);
    assert_positive("1E-3", 1, 0.001, NULL);
    assert_positive("1000000", 1, 1e6, NULL);
}
END_TEST

START_TEST(positive_number_errors_name_the_variable_and_range)
{
    static const struct {
        const char *text, *reason;
    } cases[] = {
        {"", "is empty"},
        {"x", "is not a number"},
        {"3s", "is not a number"},
        {" 3", "is not a number"},
        {"+3", "is not a number"},
        {"inf", "is not a number"},
        {"nan", "is not a number"},
        {"0x10", "is not a number"},
        {"1e", "is not a number"},
        {".", "is not a number"},
        {"1,5", "is not a number"},
        {"-3", "is negative"},
        {"-0.5", "is negative"},
        {"0", "is out of range"},
        {"0.0", "is out of range"},
        {"1000001", "is out of range"},
        {"1e400", "is out of range"},
        {"1e-400", "is out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char expected[COOP_PARSE_MESSAGE_BYTES];
        snprintf(expected, sizeof expected,
                 "COOP_TIMEOUT_S: '%s' %s; expected a number greater than 0 and at most 1e+06", cases[i].text,
                 cases[i].reason);
        assert_positive(cases[i].text, 0, 0.0, expected);
    }
}
END_TEST

START_TEST(choices)
{
    static const char *const modes[] = {"cooperative", "standalone", "multikernel"};
    char why[COOP_PARSE_MESSAGE_BYTES] = "";
    size_t index = 99;
    ck_assert_int_eq(coop_parse_choice("--mode", "standalone", modes, 3, &index, why, sizeof why), 0);
    ck_assert_uint_eq(index, 1);
    static const char *const refused[] = {"fast", "Standalone", "standalone ", "stand", ""};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        index = 99;
        ck_assert_int_eq(coop_parse_choice("--mode", refused[i], modes, 3, &index, why, sizeof why), -1);
        ck_assert_uint_eq(index, 99);
        char expected[COOP_PARSE_MESSAGE_BYTES];
        snprintf(expected, sizeof expected, "--mode: '%s' %s; expected cooperative, standalone or multikernel",
                 refused[i], *refused[i] ? "is not a choice" : "is empty");
        ck_assert_str_eq(why, expected);
    }
}
END_TEST

/* What a message shows of a value: printable as is, the rest escaped, long ones cut. */
START_TEST(quoted_values)
{
    char out[COOP_PARSE_MESSAGE_BYTES];
    coop_parse_quote("a\tb\x01\xff", out, sizeof out);
    ck_assert_str_eq(out, "a\\x09b\\x01\\xff");
    char long_text[200];
    memset(long_text, '7', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    coop_parse_quote(long_text, out, sizeof out);
    ck_assert_uint_eq(strlen(out), 64 + 3);
    ck_assert_str_eq(out + 64, "...");
    coop_parse_quote("abcdef", out, 4);
    ck_assert_str_eq(out, "abc");
    char why[COOP_PARSE_MESSAGE_BYTES];
    uint64_t value = 0;
    ck_assert_int_eq(coop_parse_unsigned("N", "1\n2", 0, 9, &value, why, sizeof why), -1);
    ck_assert_str_eq(why, "N: '1\\x0a2' is not a whole number; expected a whole number from 0 to 9");
}
END_TEST

/* coop_take_parse: a name, or a whole group count 1..4095, nothing around it. */
START_TEST(take_parse_is_strict)
{
    static const struct {
        const char *text;
        coop_take take;
        unsigned count;
    } good[] = {{"one", COOP_TAKE_ONE, 0},
                {"quarter", COOP_TAKE_QUARTER, 0},
                {"half", COOP_TAKE_HALF, 0},
                {"all-but-one", COOP_TAKE_ALL_BUT_ONE, 0},
                {"1", COOP_TAKE_COUNT, 1},
                {"77", COOP_TAKE_COUNT, 77},
                {"4095", COOP_TAKE_COUNT, 4095}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        coop_take take = (coop_take)-1;
        unsigned count = 99;
        ck_assert_msg(coop_take_parse(good[i].text, &take, &count) == 0, "'%s' refused", good[i].text);
        ck_assert_int_eq(take, good[i].take);
        ck_assert_uint_eq(count, good[i].count);
    }
    static const char *const bad[] = {"", "0", "4096", "-1", "+3", " 3", "3x", "4294967297", "Half", "quarter ",
                                      "all_but_one"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        coop_take take = COOP_TAKE_HALF;
        unsigned count = 5;
        ck_assert_msg(coop_take_parse(bad[i], &take, &count) == -1, "'%s' accepted", bad[i]);
        ck_assert_int_eq(take, COOP_TAKE_HALF);
        ck_assert_uint_eq(count, 5);
    }
    coop_take take;
    unsigned count;
    ck_assert_int_eq(coop_take_parse(NULL, &take, &count), -1);
}
END_TEST

/* coop_channel_parse: a backend's name in any case, nothing around it. */
START_TEST(channel_parse_is_strict)
{
    ck_assert_int_eq(coop_channel_parse("svm"), COOP_CHANNEL_SVM);
    ck_assert_int_eq(coop_channel_parse("NVHost"), COOP_CHANNEL_NVHOST);
    ck_assert_int_eq(coop_channel_parse("QUEUE"), COOP_CHANNEL_QUEUE);
    ck_assert_int_eq(coop_channel_parse("auto"), COOP_CHANNEL_AUTO);
    static const char *const bad[] = {"", "sv", "svm ", " svm", "svmx", "1", "carrier-pigeon-with-a-long-name"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(coop_channel_parse(bad[i]) == -1, "'%s' accepted", bad[i]);
    ck_assert_int_eq(coop_channel_parse(NULL), -1);
}
END_TEST

static Suite *strict_suite(void)
{
    Suite *suite = suite_create("strict");
    TCase *numbers = tcase_create("numbers");
    tcase_add_test(numbers, whole_numbers);
    tcase_add_test(numbers, whole_number_errors_name_the_option_and_range);
    tcase_add_test(numbers, positive_numbers);
    tcase_add_test(numbers, positive_number_errors_name_the_variable_and_range);
    tcase_add_test(numbers, choices);
    tcase_add_test(numbers, quoted_values);
    suite_add_tcase(suite, numbers);
    TCase *public = tcase_create("public parsers");
    tcase_add_test(public, take_parse_is_strict);
    tcase_add_test(public, channel_parse_is_strict);
    suite_add_tcase(suite, public);
    return suite;
}

int main(void)
{
    return tu_run(strict_suite());
}
