// hoc peer benchmark driver for Geronimoo's DominionSim (compiled against its classes).
//
//   java -cp CLASSES:JARS HocPeerDriver BOTS_XML MODE N [SECONDS]
//
// MODE: mirror (big_money vs big_money), smithy (smithy_bm vs big_money),
//       solo_bm, solo_smithy (DominionSim's own 1-player mode: the game ends when
//       the Province pile is down to 4, i.e. when the player has bought 4).
// The game loop is DomEngine.startSimulation's (new DomGame on the reused board,
// runSimulation, determineWinners, board.reset) without the Swing GUI: the engine
// object is allocated without running its GUI constructor. Seats alternate
// (keepOrder, swapped every game) instead of Collections.shuffle.
// Prints {"games", "seconds", "records"}; a 2-player record is
// [a_first, vpA, vpB, turnsA, turnsB, result], result 0 = A wins, 1 = B wins,
// 2 = shared, read from DomGame.determineWinners' addWin/addTie; a solo record
// is the turns taken.
import be.aga.dominionSimulator.*;
import java.io.FileReader;
import java.lang.reflect.Field;
import java.util.ArrayList;
import org.xml.sax.InputSource;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.XMLReaderFactory;

public class HocPeerDriver {
    static ArrayList<DomPlayer> load(String xml) throws Exception {
        XMLHandler h = new XMLHandler();
        XMLReader r = XMLReaderFactory.createXMLReader();
        r.setContentHandler(h);
        r.parse(new InputSource(new FileReader(xml)));
        return h.getBots();
    }

    static DomPlayer bot(String xml, String name, String rename) throws Exception {
        for (DomPlayer p : load(xml)) {
            if (p.toString().equals(name)) {
                Field f = DomPlayer.class.getDeclaredField("name");
                f.setAccessible(true);
                f.set(p, rename);  // display name only; players are told apart by identity
                return p;
            }
        }
        throw new IllegalArgumentException("no bot " + name + " in " + xml);
    }

    public static void main(String[] args) throws Exception {
        String xml = args[0], mode = args[1];
        int n = Integer.parseInt(args[2]);
        double seconds = args.length > 3 ? Double.parseDouble(args[3]) : 0;
        org.apache.log4j.Logger.getRootLogger().setLevel(org.apache.log4j.Level.WARN);
        DomEngine.haveToLog = false;
        Field uf = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        uf.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) uf.get(null);
        DomEngine engine = (DomEngine) unsafe.allocateInstance(DomEngine.class);
        Field cg = DomEngine.class.getDeclaredField("currentGame");
        cg.setAccessible(true);
        org.apache.log4j.Logger.getLogger(DomEngine.class).setLevel(org.apache.log4j.Level.WARN);
        org.apache.log4j.Logger.getLogger(DomGame.class).setLevel(org.apache.log4j.Level.WARN);

        boolean solo = mode.startsWith("solo");
        DomPlayer a, b = null;
        if (mode.equals("mirror")) { a = bot(xml, "big_money", "A"); b = bot(xml, "big_money", "B"); }
        else if (mode.equals("smithy")) { a = bot(xml, "smithy_bm", "A"); b = bot(xml, "big_money", "B"); }
        else if (mode.equals("solo_bm")) { a = bot(xml, "big_money", "A"); }
        else if (mode.equals("solo_smithy")) { a = bot(xml, "smithy_bm", "A"); }
        else { System.err.println("usage: HocPeerDriver BOTS_XML mirror|smithy|solo_bm|solo_smithy N [SECONDS]"); System.exit(2); return; }

        ArrayList<DomPlayer> players = new ArrayList<DomPlayer>();
        StringBuilder out = new StringBuilder();
        DomBoard board = null;
        long t0 = System.nanoTime();
        int games = 0;
        for (int g = 0; g < n; g++) {
            if (seconds > 0 && (System.nanoTime() - t0) / 1e9 >= seconds) break;
            players.clear();
            boolean aFirst = g % 2 == 0;
            if (solo) players.add(a);
            else if (aFirst) { players.add(a); players.add(b); }
            else { players.add(b); players.add(a); }
            DomGame game = new DomGame(board, players, engine);
            cg.set(engine, game);
            game.runSimulation();
            int wa = a.getWins(); double ta = a.getTies();
            int wb = solo ? 0 : b.getWins(); double tb = solo ? 0 : b.getTies();
            game.determineWinners();
            if (games > 0) out.append(',');
            if (solo) {
                out.append(a.getTurns());
            } else {
                int result;
                if (a.getWins() > wa) result = 0;
                else if (b.getWins() > wb) result = 1;
                else if (a.getTies() > ta && b.getTies() > tb) result = 2;
                else throw new IllegalStateException("no winner recorded");
                out.append('[').append(aFirst ? 1 : 0).append(',').append(a.countVictoryPoints()).append(',')
                   .append(b.countVictoryPoints()).append(',').append(a.getTurns()).append(',')
                   .append(b.getTurns()).append(',').append(result).append(']');
            }
            games++;
            board = game.getBoard();
            board.reset();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.println("{\"games\":" + games + ",\"seconds\":" + secs + ",\"records\":[" + out + "]}");
    }
}
