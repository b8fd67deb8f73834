package io.venue.journal;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The journal schema read straight from {@code sbe/venue-journal.xml} with the JDK's XML parser, so tests
 * can hold the generated codecs and the hand-written {@link RecordPrinter} and {@link RecordType} to it.
 */
final class SchemaModel
{
    static final String RESOURCE = "/sbe/venue-journal.xml";

    sealed interface Type permits Primitive, EnumType, SetType, ByteArray, CharArray, Composite
    {
    }

    /** uint8 to uint64, int64; {@code nullValue} only when optional. */
    record Primitive(String primitiveType, boolean optional, long nullValue) implements Type
    {
    }

    record EnumType(String name, String encodingType, Map<String, Long> values) implements Type
    {
    }

    /** Choice names by bit position (null where no choice has the bit). */
    record SetType(String name, List<String> choicesByBit) implements Type
    {
    }

    record ByteArray(String name, int length) implements Type
    {
    }

    record CharArray(String name, int length) implements Type
    {
    }

    record Composite(String name, List<Field> members) implements Type
    {
    }

    /** {@code sinceVersion} 0 when the schema gives none. */
    record Field(String name, int id, Type type, int sinceVersion)
    {
    }

    record Group(String name, int id, List<Field> fields)
    {
    }

    record Data(String name, int id, String encodingType, String characterEncoding)
    {
    }

    record Message(String name, int id, List<Field> fields, List<Group> groups, List<Data> data)
    {
        boolean isCommand()
        {
            return id < 100;
        }
    }

    final Element root;
    final List<Message> messages = new ArrayList<>();
    private final Map<String, Element> typeElements = new LinkedHashMap<>();

    private SchemaModel(final Element root)
    {
        this.root = root;
        final Element types = children(root, "types").get(0);
        for (final Element type : children(types, null))
        {
            typeElements.put(type.getAttribute("name"), type);
        }
        for (final Element message : children(root, "sbe:message"))
        {
            final List<Field> fields = new ArrayList<>();
            final List<Group> groups = new ArrayList<>();
            final List<Data> data = new ArrayList<>();
            for (final Element child : children(message, null))
            {
                switch (child.getTagName())
                {
                    case "field" -> fields.add(field(child));
                    case "group" -> groups.add(new Group(
                        child.getAttribute("name"),
                        Integer.parseInt(child.getAttribute("id")),
                        children(child, "field").stream().map(this::field).toList()));
                    case "data" -> data.add(data(child));
                    default -> throw new IllegalStateException("unexpected " + child.getTagName());
                }
            }
            messages.add(new Message(
                message.getAttribute("name"), Integer.parseInt(message.getAttribute("id")), fields, groups, data));
        }
    }

    static SchemaModel load()
    {
        return load(RESOURCE);
    }

    /** A schema file on the test class path: the build's own, or an earlier version's kept for comparison. */
    static SchemaModel load(final String resource)
    {
        try (InputStream in = SchemaModel.class.getResourceAsStream(resource))
        {
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(false);
            final Document document = factory.newDocumentBuilder().parse(in);
            return new SchemaModel(document.getDocumentElement());
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("cannot read " + resource, ex);
        }
    }

    Message message(final String name)
    {
        return messages.stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    private Field field(final Element element)
    {
        final String since = element.getAttribute("sinceVersion");
        return new Field(element.getAttribute("name"), Integer.parseInt(element.getAttribute("id")),
            type(element.getAttribute("type")), since.isEmpty() ? 0 : Integer.parseInt(since));
    }

    private Data data(final Element element)
    {
        final String encodingType = element.getAttribute("type");
        final Element composite = typeElements.get(encodingType);
        final Element varData = children(composite, "type").stream()
            .filter(e -> e.getAttribute("name").equals("varData")).findFirst().orElseThrow();
        return new Data(
            element.getAttribute("name"),
            Integer.parseInt(element.getAttribute("id")),
            encodingType,
            varData.getAttribute("characterEncoding"));
    }

    private Type type(final String name)
    {
        final Element element = typeElements.get(name);
        if (element == null)
        {
            return new Primitive(name, false, 0);
        }
        return type(element, name);
    }

    private Type type(final Element element, final String name)
    {
        switch (element.getTagName())
        {
            case "type":
            {
                final String primitive = element.getAttribute("primitiveType");
                final String length = element.getAttribute("length");
                if (!length.isEmpty() && Integer.parseInt(length) > 1)
                {
                    return primitive.equals("char") ?
                        new CharArray(name, Integer.parseInt(length)) : new ByteArray(name, Integer.parseInt(length));
                }
                final boolean optional = element.getAttribute("presence").equals("optional");
                return new Primitive(
                    primitive, optional, optional ? Long.parseLong(element.getAttribute("nullValue")) : 0);
            }
            case "enum":
            {
                final Map<String, Long> values = new LinkedHashMap<>();
                for (final Element value : children(element, "validValue"))
                {
                    values.put(value.getAttribute("name"), Long.parseLong(value.getTextContent().trim()));
                }
                return new EnumType(name, element.getAttribute("encodingType"), values);
            }
            case "set":
            {
                final List<String> byBit = new ArrayList<>();
                for (final Element choice : children(element, "choice"))
                {
                    final int bit = Integer.parseInt(choice.getTextContent().trim());
                    while (byBit.size() <= bit)
                    {
                        byBit.add(null);
                    }
                    byBit.set(bit, choice.getAttribute("name"));
                }
                return new SetType(name, byBit);
            }
            case "composite":
            {
                final List<Field> members = new ArrayList<>();
                for (final Element member : children(element, null))
                {
                    final String memberName = member.getAttribute("name");
                    final Type memberType = member.getTagName().equals("ref") ?
                        type(member.getAttribute("type")) : type(member, memberName);
                    members.add(new Field(memberName, 0, memberType, 0));
                }
                return new Composite(name, members);
            }
            default:
                throw new IllegalStateException("unexpected type element " + element.getTagName());
        }
    }

    static List<Element> children(final Element parent, final String tagName)
    {
        final List<Element> result = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling())
        {
            if (node instanceof Element element && (tagName == null || element.getTagName().equals(tagName)))
            {
                result.add(element);
            }
        }
        return result;
    }
}
