package io.venue.appliance;

import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.FileStoreFactory;
import quickfix.Log;
import quickfix.LogFactory;
import quickfix.Message;
import quickfix.MessageStoreFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.ScreenLogFactory;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A QuickFIX/J initiator of one FIX 4.4 session, configured only from what the connectivity bundle and docs/FIX.md
 * say (host, port, CompIDs, sub-session; Username, Password and Account on the Logon): the independent counterparty
 * of the FIX lane's tests. Keeps every message it receives, admin and application, in order; its sequence numbers
 * live in a file store in {@code folder}, so a new client over the same folder goes on where the last one stopped.
 */
final class QuickFixClient implements Application, AutoCloseable
{
    /** QuickFIX/J's own log of every message and event, on standard out (the test reports keep it). */
    private static final boolean LOG = true;

    private final SocketInitiator initiator;
    private final SessionID sessionId;
    private final String username;
    private final String password;
    private final String account;
    private final List<Message> received = new ArrayList<>();
    private final List<String> raw = new ArrayList<>();
    private final Set<String> possDup = new HashSet<>();
    private volatile boolean loggedOn;

    QuickFixClient(final Path folder, final int port, final String targetCompId, final String subSession,
        final String apiKeyId, final String secret, final String passphrase, final String account,
        final String extraSettings) throws Exception
    {
        this.username = apiKeyId;
        this.password = secret + ":" + passphrase;
        this.account = account;
        final String settings = String.join("\n",
            "[DEFAULT]",
            "ConnectionType=initiator",
            "BeginString=FIX.4.4",
            "StartTime=00:00:00",
            "EndTime=00:00:00",
            "NonStopSession=Y",
            "HeartBtInt=30",
            "ReconnectInterval=3600",
            "UseDataDictionary=Y",
            "DataDictionary=FIX44.xml",
            "ValidateUserDefinedFields=N",
            "FileStorePath=" + folder.resolve("store"),
            "SocketConnectHost=127.0.0.1",
            "SocketConnectPort=" + port,
            extraSettings,
            "[SESSION]",
            "SenderCompID=" + apiKeyId,
            "TargetCompID=" + targetCompId,
            "TargetSubID=" + subSession,
            "");
        final SessionSettings sessionSettings = new SessionSettings(new ByteArrayInputStream(
            settings.getBytes(StandardCharsets.US_ASCII)));
        final MessageStoreFactory store = new FileStoreFactory(sessionSettings);
        final ScreenLogFactory screen = new ScreenLogFactory(LOG, LOG, LOG, false);
        // every message as it came off the wire, before QuickFIX/J parses it (or drops a duplicate it has already)
        final LogFactory logs = id -> new Log()
        {
            private final Log log = screen.create(id);

            public void clear()
            {
                log.clear();
            }

            public void onIncoming(final String message)
            {
                synchronized (raw)
                {
                    raw.add(message);
                }
                log.onIncoming(message);
            }

            public void onOutgoing(final String message)
            {
                log.onOutgoing(message);
            }

            public void onEvent(final String text)
            {
                log.onEvent(text);
            }

            public void onErrorEvent(final String text)
            {
                log.onErrorEvent(text);
            }
        };
        initiator = new SocketInitiator(this, store, sessionSettings, logs, new DefaultMessageFactory());
        sessionId = sessionSettings.sectionIterator().next();
        initiator.start();
    }

    Session session()
    {
        return Session.lookupSession(sessionId);
    }

    boolean loggedOn()
    {
        return loggedOn;
    }

    /** Waits until the session is logged on, or fails with what was received. */
    void awaitLogon(final long waitMs) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (!loggedOn && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        if (!loggedOn)
        {
            throw new AssertionError("no logon within " + waitMs + " ms; received " + received());
        }
    }

    /** The first message received (from index {@code from} on) that {@code test} accepts, waiting for it. */
    Message await(final Predicate<Message> test, final long waitMs) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (System.nanoTime() < deadline)
        {
            synchronized (received)
            {
                for (final Message message : received)
                {
                    if (test.test(message))
                    {
                        return message;
                    }
                }
                received.wait(10);
            }
        }
        throw new AssertionError("no such message within " + waitMs + " ms; received " + received());
    }

    /** A message of type {@code msgType} received, waiting for it. */
    Message await(final String msgType, final long waitMs) throws Exception
    {
        return await(m -> type(m).equals(msgType), waitMs);
    }

    List<Message> received()
    {
        synchronized (received)
        {
            return new ArrayList<>(received);
        }
    }

    /** Every message received, as its bytes came (SOH-separated), duplicates QuickFIX/J dropped included. */
    List<String> raw()
    {
        synchronized (raw)
        {
            return new ArrayList<>(raw);
        }
    }

    void clear()
    {
        synchronized (received)
        {
            received.clear();
        }
    }

    static String type(final Message message)
    {
        try
        {
            return message.getHeader().getString(MsgType.FIELD);
        }
        catch (final FieldNotFound ex)
        {
            return "";
        }
    }

    static String text(final Message message)
    {
        return message.isSetField(58) ? get(message, 58) : "";
    }

    static String get(final Message message, final int tag)
    {
        try
        {
            return message.isSetField(tag) ? message.getString(tag) : message.getHeader().getString(tag);
        }
        catch (final FieldNotFound ex)
        {
            return null;
        }
    }

    void logout() throws Exception
    {
        session().logout("done");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (loggedOn && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
    }

    @Override
    public void close()
    {
        initiator.stop(true);
    }

    @Override
    public void onCreate(final SessionID sessionId)
    {
    }

    @Override
    public void onLogon(final SessionID sessionId)
    {
        loggedOn = true;
    }

    @Override
    public void onLogout(final SessionID sessionId)
    {
        loggedOn = false;
    }

    @Override
    public void toAdmin(final Message message, final SessionID sessionId)
    {
        if (type(message).equals(MsgType.LOGON))
        {
            message.setString(553, username);
            message.setString(554, password);
            message.setString(1, account);
        }
    }

    @Override
    public void fromAdmin(final Message message, final SessionID sessionId)
    {
        keep(message);
    }

    /**
     * The next application message with ClOrdID {@code clOrdId} goes with PossDupFlag Y and OrigSendingTime, as one
     * sent again after an unclean stop (QuickFIX/J clears the flag of a message it numbers new, so it is set here).
     */
    void possDup(final String clOrdId)
    {
        synchronized (possDup)
        {
            possDup.add(clOrdId);
        }
    }

    @Override
    public void toApp(final Message message, final SessionID sessionId)
    {
        final String clOrdId = message.isSetField(11) ? get(message, 11) : null;
        synchronized (possDup)
        {
            if (clOrdId != null && possDup.remove(clOrdId))
            {
                message.getHeader().setBoolean(43, true);
                message.getHeader().setUtcTimeStamp(122, LocalDateTime.now(ZoneOffset.UTC), true);
            }
        }
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionId)
    {
        keep(message);
    }

    private void keep(final Message message)
    {
        synchronized (received)
        {
            received.add(message);
            received.notifyAll();
        }
    }
}
