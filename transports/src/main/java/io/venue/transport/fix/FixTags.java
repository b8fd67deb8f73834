package io.venue.transport.fix;

/** The FIX 4.4 tags, MsgTypes and enumerations this lane reads or writes (docs/FIX.md lists each with its rule). */
final class FixTags
{
    static final byte SOH = 1;
    static final String BEGIN_STRING = "FIX.4.4";

    static final int ACCOUNT = 1;
    static final int BEGIN_SEQ_NO = 7;
    static final int BEGIN_STRING_TAG = 8;
    static final int BODY_LENGTH = 9;
    static final int CHECK_SUM = 10;
    static final int END_SEQ_NO = 16;
    static final int MSG_SEQ_NUM = 34;
    static final int MSG_TYPE = 35;
    static final int NEW_SEQ_NO = 36;
    static final int POSS_DUP_FLAG = 43;
    static final int REF_SEQ_NUM = 45;
    static final int SENDER_COMP_ID = 49;
    static final int SENDING_TIME = 52;
    static final int TARGET_COMP_ID = 56;
    static final int TARGET_SUB_ID = 57;
    static final int TEXT = 58;
    static final int POSS_RESEND = 97;
    static final int ENCRYPT_METHOD = 98;
    static final int HEART_BT_INT = 108;
    static final int TEST_REQ_ID = 112;
    static final int ORIG_SENDING_TIME = 122;
    static final int GAP_FILL_FLAG = 123;
    static final int RESET_SEQ_NUM_FLAG = 141;
    static final int REF_TAG_ID = 371;
    static final int REF_MSG_TYPE = 372;
    static final int SESSION_REJECT_REASON = 373;
    static final int BUSINESS_REJECT_REASON = 380;
    static final int USERNAME = 553;
    static final int PASSWORD = 554;

    // MsgType(35) values, as the byte of the one-character types (every session type is one character)
    // application tags (order entry, docs/FIX.md)
    static final int AVG_PX = 6;
    static final int CL_ORD_ID = 11;
    static final int CUM_QTY = 14;
    static final int EXEC_ID = 17;
    static final int EXEC_INST = 18;
    static final int SECURITY_ID_SOURCE = 22;
    static final int LAST_PX = 31;
    static final int LAST_QTY = 32;
    static final int ORDER_ID = 37;
    static final int ORDER_QTY = 38;
    static final int ORD_STATUS = 39;
    static final int ORD_TYPE = 40;
    static final int ORIG_CL_ORD_ID = 41;
    static final int PRICE = 44;
    static final int SECURITY_ID = 48;
    static final int SIDE = 54;
    static final int SYMBOL = 55;
    static final int TIME_IN_FORCE = 59;
    static final int TRANSACT_TIME = 60;
    static final int CXL_REJ_REASON = 102;
    static final int ORD_REJ_REASON = 103;
    static final int EXPIRE_TIME = 126;
    static final int EXEC_TYPE = 150;
    static final int LEAVES_QTY = 151;
    static final int BUSINESS_REJECT_REF_ID = 379;
    static final int CXL_REJ_RESPONSE_TO = 434;
    static final int SECONDARY_EXEC_ID = 527;
    static final int MASS_CANCEL_REQUEST_TYPE = 530;
    static final int MASS_CANCEL_RESPONSE = 531;
    static final int MASS_CANCEL_REJECT_REASON = 532;
    static final int TOTAL_AFFECTED_ORDERS = 533;
    static final int SELF_MATCH_PREVENTION = 2964;
    static final byte HEARTBEAT = '0';
    static final byte TEST_REQUEST = '1';
    static final byte RESEND_REQUEST = '2';
    static final byte REJECT = '3';
    static final byte SEQUENCE_RESET = '4';
    static final byte LOGOUT = '5';
    static final byte LOGON = 'A';
    static final byte BUSINESS_MESSAGE_REJECT = 'j';
    static final byte NEW_ORDER_SINGLE = 'D';

    // SessionRejectReason(373)
    static final int REJECT_INVALID_TAG_NUMBER = 0;
    static final int REJECT_REQUIRED_TAG_MISSING = 1;
    static final int REJECT_TAG_WITHOUT_VALUE = 4;
    static final int REJECT_VALUE_INCORRECT = 5;
    static final int REJECT_INCORRECT_DATA_FORMAT = 6;
    static final int REJECT_COMP_ID_PROBLEM = 9;
    static final int REJECT_SENDING_TIME_ACCURACY = 10;
    static final int REJECT_INVALID_MSG_TYPE = 11;
    static final int REJECT_TAG_APPEARS_MORE_THAN_ONCE = 13;
    static final int REJECT_TAG_OUT_OF_ORDER = 14;
    static final int REJECT_OTHER = 99;

    // BusinessRejectReason(380)
    static final int BUSINESS_UNSUPPORTED_MESSAGE_TYPE = 3;
    static final int BUSINESS_NOT_AUTHORIZED = 6;

    private FixTags()
    {
    }

    /** The standard header's tags (FIX 4.4): they come before every body tag, after 8, 9 and 35. */
    static boolean isHeaderTag(final int tag)
    {
        return switch (tag)
        {
            case 8, 9, 35, 34, 43, 49, 50, 52, 56, 57, 90, 91, 97, 115, 116, 122, 128, 129, 142, 143, 144, 145, 212,
                213, 347, 369, 627, 628, 629, 630 -> true;
            default -> false;
        };
    }

    /**
     * Whether {@code type} is a MsgType of FIX 4.4 at all (one or two characters from its list): a type outside the
     * list is a session Reject (InvalidMsgType), one inside it the venue does not take a BusinessMessageReject.
     */
    static boolean isFix44MsgType(final CharSequence type)
    {
        if (type.length() == 1)
        {
            final char c = type.charAt(0);
            return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
        }
        if (type.length() == 2)
        {
            final char first = type.charAt(0);
            final char second = type.charAt(1);
            return first == 'A' && second >= 'A' && second <= 'Z' || first == 'B' && second >= 'A' && second <= 'H';
        }
        return false;
    }
}
